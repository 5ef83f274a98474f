import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import type { RgbImage } from './decode.js';
import type { FaceGeometry, Point } from './face.js';
import { LAYOUT } from './layout.js';

/**
 * A similarity transform from artwork pixels to photo pixels: the eyes end up level and the face
 * centred in the upper half at a consistent size.
 */
export interface Framing {
  /** Photo pixels per artwork pixel along the artwork's x axis, as a rotated vector. */
  cos: number;
  sin: number;
  /** Artwork pixels per photo pixel. */
  scale: number;
  source: Point;
  target: Point;
}

export function computeFraming(face: FaceGeometry): Framing {
  const angle = Math.atan2(face.rightEye.y - face.leftEye.y, face.rightEye.x - face.leftEye.x);
  const eyes = { x: (face.leftEye.x + face.rightEye.x) / 2, y: (face.leftEye.y + face.rightEye.y) / 2 };
  return {
    cos: Math.cos(angle),
    sin: Math.sin(angle),
    scale: (LAYOUT.faceWidth * LAYOUT.width) / face.width,
    source: { x: (eyes.x + face.mouth.x) / 2, y: (eyes.y + face.mouth.y) / 2 },
    target: { x: LAYOUT.faceCentreX * LAYOUT.width, y: LAYOUT.faceCentreY * LAYOUT.height },
  };
}

/** Maps a photo point into the artwork. */
export function toArtwork(framing: Framing, p: Point): Point {
  const dx = (p.x - framing.source.x) * framing.scale;
  const dy = (p.y - framing.source.y) * framing.scale;
  return {
    x: framing.target.x + dx * framing.cos + dy * framing.sin,
    y: framing.target.y - dx * framing.sin + dy * framing.cos,
  };
}

/** Maps an artwork point back into the photo. */
export function fromArtwork(framing: Framing, p: Point): Point {
  const dx = (p.x - framing.target.x) / framing.scale;
  const dy = (p.y - framing.target.y) / framing.scale;
  return {
    x: framing.source.x + dx * framing.cos - dy * framing.sin,
    y: framing.source.y + dx * framing.sin + dy * framing.cos,
  };
}

/** The roll the framing takes out, in degrees. */
export function rollDegrees(framing: Framing): number {
  return (Math.atan2(framing.sin, framing.cos) * 180) / Math.PI;
}

/**
 * Renders the framed photo at artwork size divided by `reduction` (the engine works at half size).
 * `photoScale` is the photo's size relative to the image the framing was measured on. Large
 * reductions go through sharp's Lanczos resize first so the bilinear warp never aliases; beyond
 * its edges the photo is mirrored.
 */
export async function warpToArtwork(
  photo: RgbImage,
  framing: Framing,
  reduction = 1,
  photoScale = 1,
): Promise<RgbImage> {
  let source = photo;
  let scale = framing.scale / reduction / photoScale;
  let factor = photoScale;
  if (scale < 0.65) {
    const width = Math.max(1, Math.round(photo.width * scale));
    const height = Math.max(1, Math.round(photo.height * scale));
    const data = await sharp(photo.data, {
      raw: { width: photo.width, height: photo.height, channels: 3 },
      limitInputPixels: UPLOAD_LIMITS.maxPixels,
    })
      .resize(width, height, { fit: 'fill' })
      .raw()
      .toBuffer();
    source = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
    const shrink = width / photo.width;
    factor *= shrink;
    scale /= shrink;
  }
  const width = Math.round(LAYOUT.width / reduction);
  const height = Math.round(LAYOUT.height / reduction);
  const tx = framing.target.x / reduction;
  const ty = framing.target.y / reduction;
  const out = new Uint8Array(width * height * 3);
  const src = source.data;
  const sw = source.width;
  const maxX = source.width - 1;
  const maxY = source.height - 1;
  const inv = 1 / scale;
  const ux = framing.cos * inv;
  const uy = framing.sin * inv;
  const cx = framing.source.x * factor;
  const cy = framing.source.y * factor;
  let o = 0;
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - ty;
    const dx = 0.5 - tx;
    let sx = cx + dx * ux - dy * uy - 0.5;
    let sy = cy + dx * uy + dy * ux - 0.5;
    for (let x = 0; x < width; x++, sx += ux, sy += uy, o += 3) {
      // Beyond the photo it is mirrored, which continues shoulders and hair far better than
      // repeating the edge pixels in streaks.
      const mx = sx < 0 ? -sx : sx >= maxX ? 2 * maxX - sx : sx;
      const my = sy < 0 ? -sy : sy >= maxY ? 2 * maxY - sy : sy;
      const fx = mx < 0 ? 0 : mx >= maxX ? maxX - 1e-3 : mx;
      const fy = my < 0 ? 0 : my >= maxY ? maxY - 1e-3 : my;
      const x0 = fx | 0;
      const y0 = fy | 0;
      const ax = fx - x0;
      const ay = fy - y0;
      const w00 = (1 - ax) * (1 - ay);
      const w10 = ax * (1 - ay);
      const w01 = (1 - ax) * ay;
      const w11 = ax * ay;
      const i00 = (y0 * sw + x0) * 3;
      const i01 = i00 + sw * 3;
      // The weights sum to 1, so values stay within 0–255 and +0.5 then truncation rounds.
      out[o] =
        (src[i00] as number) * w00 +
        (src[i00 + 3] as number) * w10 +
        (src[i01] as number) * w01 +
        (src[i01 + 3] as number) * w11 +
        0.5;
      out[o + 1] =
        (src[i00 + 1] as number) * w00 +
        (src[i00 + 4] as number) * w10 +
        (src[i01 + 1] as number) * w01 +
        (src[i01 + 4] as number) * w11 +
        0.5;
      out[o + 2] =
        (src[i00 + 2] as number) * w00 +
        (src[i00 + 5] as number) * w10 +
        (src[i01 + 2] as number) * w01 +
        (src[i01 + 5] as number) * w11 +
        0.5;
    }
  }
  return { data: out, width, height };
}
