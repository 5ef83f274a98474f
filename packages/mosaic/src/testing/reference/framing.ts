import type { RgbImage } from '../../decode.js';
import { COVERAGE_FADE, COVERAGE_OFFSET, type Framing, warpSource } from '../../framing.js';
import { LAYOUT } from '../../layout.js';

/*
 * The JavaScript the engine's WebAssembly `warpPhoto` and `fadeBeyondPhotoLoop` replaced, kept as
 * the reference their tests compare with.
 */

/** The flat grey painted where the framed portrait reaches beyond the photo. */
const OUTSIDE_GREY = 128;

/** `warpToArtwork` (`framing.ts`) with the JavaScript warp. */
export async function warpToArtwork(
  photo: RgbImage,
  framing: Framing,
  reduction = 1,
  photoScale = 1,
  out = new Uint8Array(Math.round(LAYOUT.width / reduction) * Math.round(LAYOUT.height / reduction) * 3),
): Promise<RgbImage> {
  const { source, scale, factor } = await warpSource(photo, framing, reduction, photoScale);
  const width = Math.round(LAYOUT.width / reduction);
  const height = Math.round(LAYOUT.height / reduction);
  const tx = framing.target.x / reduction;
  const ty = framing.target.y / reduction;
  const src = source.data;
  const sw = source.width;
  const stride = sw * 3;
  const maxX = source.width - 1;
  const maxY = source.height - 1;
  const lastX = maxX - 1e-3;
  const lastY = maxY - 1e-3;
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
      // Beyond the photo there is nothing to show: a neutral fill, never a reflection of the
      // visitor (the engine paints that area as background; see photoCoverage). Within a pixel of
      // the edge the edge pixels repeat, so bilinear sampling stays continuous.
      let fx = sx;
      let fy = sy;
      // Inside the photo (nearly every pixel) the clamps below change nothing.
      if (!(sx >= 0 && sy >= 0 && sx <= lastX && sy <= lastY)) {
        if (sx < -1 || sy < -1 || sx > maxX + 1 || sy > maxY + 1) {
          out[o] = OUTSIDE_GREY;
          out[o + 1] = OUTSIDE_GREY;
          out[o + 2] = OUTSIDE_GREY;
          continue;
        }
        fx = Math.min(lastX, Math.max(0, sx));
        fy = Math.min(lastY, Math.max(0, sy));
      }
      const x0 = fx | 0;
      const y0 = fy | 0;
      const ax = fx - x0;
      const ay = fy - y0;
      const w00 = (1 - ax) * (1 - ay);
      const w10 = ax * (1 - ay);
      const w01 = (1 - ax) * ay;
      const w11 = ax * ay;
      const i00 = (y0 * sw + x0) * 3;
      const i01 = i00 + stride;
      // The weights sum to 1, so values stay within 0–255 and +0.5 then truncation rounds. The three
      // channels are written out rather than looped, which the frame stage's warp ran faster with.
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

/** `photoCoverage` (`framing.ts`) with the JavaScript fade. */
export function photoCoverage(
  framing: Framing,
  width: number,
  height: number,
  reduction: number,
  out = new Float32Array(Math.round(LAYOUT.width / reduction) * Math.round(LAYOUT.height / reduction)),
): Float32Array {
  return fadeBeyondPhoto(out.fill(1), framing, width, height, reduction);
}

/** Multiplies a map at artwork size divided by `reduction` by photoCoverage, in place. */
export function fadeBeyondPhoto(
  map: Float32Array,
  framing: Framing,
  width: number,
  height: number,
  reduction: number,
): Float32Array {
  const ow = Math.round(LAYOUT.width / reduction);
  const oh = Math.round(LAYOUT.height / reduction);
  const tx = framing.target.x / reduction;
  const ty = framing.target.y / reduction;
  // Photo pixels per output pixel along x; distances go back to artwork pixels with `scale`.
  const ux = (framing.cos * reduction) / framing.scale;
  const uy = (framing.sin * reduction) / framing.scale;
  for (let y = 0, o = 0; y < oh; y++) {
    const dy = y + 0.5 - ty;
    const dx = 0.5 - tx;
    let sx = framing.source.x + dx * ux - dy * uy;
    let sy = framing.source.y + dx * uy + dy * ux;
    for (let x = 0; x < ow; x++, o++, sx += ux, sy += uy) {
      // Distance inside the nearest photo edge, in artwork pixels (negative outside).
      const inside = Math.min(Math.min(sx, width - sx), Math.min(sy, height - sy)) * framing.scale;
      const t = Math.min(1, Math.max(0, (inside - COVERAGE_OFFSET) / COVERAGE_FADE));
      if (t < 1) map[o] = (map[o] as number) * Math.fround(t * t * (3 - 2 * t));
    }
  }
  return map;
}
