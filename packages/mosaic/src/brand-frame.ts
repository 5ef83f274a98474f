import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { type Art, type ArtVariantName, perArt } from './art.js';
import { LAYOUT } from './layout.js';

/**
 * The campaign frame: a border in the variant's frame colour with a fine accent line, and a band
 * at the bottom carrying the brand × partner wordmark set in Cinzel (inscriptional capitals, shipped
 * as a TTF in an npm package so the text looks the same on every machine). Built once per variant
 * and thread, then copied over each artwork.
 *
 * The frame is opaque and its window clear (checked when it is built), so the mosaic is painted
 * only inside the window and the frame keeps just its own pixels: 0.6 MB per variant instead of
 * an artwork-sized RGBA image of 5.8 MB.
 */
export interface FrameOverlay {
  /** The open window of the frame, right and bottom exclusive: the mosaic shows there. */
  innerTop: number;
  innerBottom: number;
  innerLeft: number;
  innerRight: number;
  /**
   * The frame's RGB outside the window in raster order: the full rows above it, the left and
   * right strips beside it row by row, then the full rows below it.
   */
  rgb: Uint8Array;
}

const require = createRequire(import.meta.url);
const fontFile = join(dirname(require.resolve('@expo-google-fonts/cinzel')), '600SemiBold', 'Cinzel_600SemiBold.ttf');
const overlays = perArt(() => new Map<ArtVariantName, Promise<FrameOverlay>>());

export function frameOverlay(art: Art, variant: ArtVariantName): Promise<FrameOverlay> {
  const built = overlays(art);
  let overlay = built.get(variant);
  if (!overlay) {
    overlay = buildOverlay(art, variant);
    built.set(variant, overlay);
  }
  return overlay;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function buildOverlay(art: Art, variant: ArtVariantName): Promise<FrameOverlay> {
  const colours = art.colours[variant];
  const accent = colours.pattern[colours.pattern.length - 1] as string;
  const { width, height, border, band } = LAYOUT;
  const innerBottom = height - band;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <path fill-rule="evenodd" fill="${colours.frame}"
    d="M0 0H${width}V${height}H0Z M${border} ${border}V${innerBottom}H${width - border}V${border}Z"/>
  <rect x="${border - 5}" y="${border - 5}" width="${width - 2 * border + 10}" height="${innerBottom - border + 10}"
    fill="none" stroke="${accent}" stroke-width="2"/>
</svg>`;
  const textHeight = Math.round(band * 0.34);
  const text = await sharp({
    text: {
      text: `<span foreground="${colours.wordmark}" letter_spacing="${6 * 1024}">${escapeMarkup(art.wordmark)}</span>`,
      font: 'Cinzel SemiBold',
      fontfile: fontFile,
      rgba: true,
      height: textHeight,
      width: width - 4 * border,
      align: 'centre',
    },
    limitInputPixels: UPLOAD_LIMITS.maxPixels,
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const { data } = await sharp(Buffer.from(svg), { limitInputPixels: UPLOAD_LIMITS.maxPixels })
    .composite([
      {
        input: text.data,
        left: Math.round((width - text.info.width) / 2),
        top: Math.round(innerBottom + (band - border / 2 - text.info.height) / 2),
      },
    ])
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const window = { innerTop: border, innerBottom, innerLeft: border, innerRight: width - border };
  return { ...window, rgb: frameRgb(rgba, window, variant) };
}

type Window = Pick<FrameOverlay, 'innerTop' | 'innerBottom' | 'innerLeft' | 'innerRight'>;

/** The frame's own pixels, after checking that it is opaque outside its window and clear inside. */
function frameRgb(rgba: Uint8Array, window: Window, variant: ArtVariantName): Uint8Array {
  const { width, height } = LAYOUT;
  const open = (window.innerRight - window.innerLeft) * (window.innerBottom - window.innerTop);
  const rgb = new Uint8Array((width * height - open) * 3);
  let k = 0;
  for (let y = 0; y < height; y++) {
    const rows = y >= window.innerTop && y < window.innerBottom;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inside = rows && x >= window.innerLeft && x < window.innerRight;
      if (rgba[i + 3] !== (inside ? 0 : 255)) {
        throw new Error(`the ${variant} frame must be opaque outside its window and clear inside (pixel ${x}, ${y})`);
      }
      if (inside) continue;
      rgb[k++] = rgba[i] as number;
      rgb[k++] = rgba[i + 1] as number;
      rgb[k++] = rgba[i + 2] as number;
    }
  }
  return rgb;
}

/** Puts the frame over the artwork in place. */
export function applyFrame(rgb: Uint8Array, overlay: FrameOverlay): void {
  const { width } = LAYOUT;
  const frame = overlay.rgb;
  const above = overlay.innerTop * width * 3;
  rgb.set(frame.subarray(0, above), 0);
  let k = above;
  const left = overlay.innerLeft * 3;
  const right = (width - overlay.innerRight) * 3;
  for (let y = overlay.innerTop; y < overlay.innerBottom; y++) {
    const row = y * width * 3;
    for (let i = 0; i < left; i++) rgb[row + i] = frame[k++] as number;
    const start = row + overlay.innerRight * 3;
    for (let i = 0; i < right; i++) rgb[start + i] = frame[k++] as number;
  }
  rgb.set(frame.subarray(k), overlay.innerBottom * width * 3);
}
