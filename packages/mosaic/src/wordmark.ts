import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import type { Art, ArtVariantName } from './art.js';
import { LAYOUT } from './layout.js';

/**
 * The brand × partner wordmark set in Cinzel (inscriptional capitals, shipped as a TTF in an npm
 * package so the text looks the same on every machine), in the variant's wordmark colour.
 */

/** Height of the wordmark's line on the 4:5's band, artwork pixels. */
export const WORDMARK_HEIGHT = Math.round(LAYOUT.band * 0.34);

const require = createRequire(import.meta.url);
const fontFile = join(dirname(require.resolve('@expo-google-fonts/cinzel')), '600SemiBold', 'Cinzel_600SemiBold.ttf');

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The wordmark (or `lines` of it, one under the other) as an RGBA PNG: fitted into a box, as the 4:5's
 * band sets it, or at a given `dpi`.
 */
export function wordmark(
  art: Art,
  variant: ArtVariantName,
  size: { height: number; width: number } | { dpi: number },
  lines: readonly string[] = [art.wordmark],
) {
  const colour = art.colours[variant].wordmark;
  return sharp({
    text: {
      text: `<span foreground="${colour}" letter_spacing="${6 * 1024}">${lines.map(escapeMarkup).join('\n')}</span>`,
      font: 'Cinzel SemiBold',
      fontfile: fontFile,
      rgba: true,
      ...size,
      align: 'centre',
    },
    limitInputPixels: UPLOAD_LIMITS.maxPixels,
  })
    .png()
    .toBuffer({ resolveWithObject: true });
}
