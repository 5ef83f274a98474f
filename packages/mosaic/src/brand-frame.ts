import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ART_VARIANTS, type ArtVariantName, BRAND } from '@selfie-mosaic/campaign';
import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { LAYOUT } from './layout.js';

/**
 * The campaign frame: a border in the variant's frame colour with a fine accent line, and a band
 * at the bottom carrying the brand × partner wordmark set in Cinzel (inscriptional capitals, shipped
 * as a TTF in an npm package so the text looks the same on every machine). Built once per variant
 * and thread, then blended over each artwork.
 */
export interface FrameOverlay {
  /** RGBA, artwork size. */
  rgba: Uint8Array;
  /** The open window of the frame (no frame pixel inside), skipped when blending. */
  innerTop: number;
  innerBottom: number;
  innerLeft: number;
  innerRight: number;
  /** Every pixel outside the window is fully opaque, so nothing painted there can show. */
  opaqueOutside: boolean;
}

const require = createRequire(import.meta.url);
const fontFile = join(dirname(require.resolve('@expo-google-fonts/cinzel')), '600SemiBold', 'Cinzel_600SemiBold.ttf');
const cache = new Map<ArtVariantName, Promise<FrameOverlay>>();

export function frameOverlay(variant: ArtVariantName): Promise<FrameOverlay> {
  let overlay = cache.get(variant);
  if (!overlay) {
    overlay = buildOverlay(variant);
    cache.set(variant, overlay);
  }
  return overlay;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function buildOverlay(variant: ArtVariantName): Promise<FrameOverlay> {
  const colours = ART_VARIANTS[variant];
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
      text: `<span foreground="${colours.wordmark}" letter_spacing="${6 * 1024}">${escapeMarkup(BRAND.wordmark)}</span>`,
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
  return { rgba, ...window, opaqueOutside: isOpaqueOutside(rgba, window) };
}

function isOpaqueOutside(
  rgba: Uint8Array,
  window: Pick<FrameOverlay, 'innerTop' | 'innerBottom' | 'innerLeft' | 'innerRight'>,
): boolean {
  const { width, height } = LAYOUT;
  for (let y = 0; y < height; y++) {
    const open = y >= window.innerTop && y < window.innerBottom;
    for (let x = 0; x < width; x++) {
      if (open && x >= window.innerLeft && x < window.innerRight) continue;
      if (rgba[(y * width + x) * 4 + 3] !== 255) return false;
    }
  }
  return true;
}

/** Blends the frame over the artwork in place. */
export function applyFrame(rgb: Uint8Array, overlay: FrameOverlay): void {
  const { width, height } = LAYOUT;
  const { rgba } = overlay;
  for (let y = 0; y < height; y++) {
    const open = y >= overlay.innerTop && y < overlay.innerBottom;
    for (let x = 0; x < width; x++) {
      if (open && x >= overlay.innerLeft && x < overlay.innerRight) {
        x = overlay.innerRight - 1;
        continue;
      }
      const i = y * width + x;
      const a = (rgba[i * 4 + 3] as number) / 255;
      if (a === 0) continue;
      const o = i * 3;
      for (let c = 0; c < 3; c++) {
        rgb[o + c] = (rgb[o + c] as number) + ((rgba[i * 4 + c] as number) - (rgb[o + c] as number)) * a + 0.5;
      }
    }
  }
}
