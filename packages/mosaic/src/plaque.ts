import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import type { Art, ArtVariantName } from './art.js';
import { LAYOUT, STORY_LAYOUT, STORY_PLAQUE } from './layout.js';
import { WORDMARK_HEIGHT, wordmark } from './wordmark.js';

/**
 * The story's wordmark plaque: a tabula ansata (a tablet with a dovetail handle on each side, as
 * Roman mosaics carry their inscriptions) in the frame's colour with its accent line, the wordmark
 * set on it as large as on the 4:5's band. It lies in the mosaic, centred above the rows a story's
 * own controls cover; the story's tesserae are cut around it (`story.ts`), so a joint outlines it.
 */
export interface Plaque {
  /** Where its box sits on the story, story pixels. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** The box's pixels, RGBA, not premultiplied: clear outside the tablet's outline. */
  rgba: Uint8Array;
}

/** Margins around the text on the tablet, and each handle's width, as shares of the text's line height. */
const PADDING = { x: 0.6, y: 0.5 };
const HANDLE = 1;
/** Where a handle meets the tablet and how far it flares, as shares of the tablet's half height. */
const NECK = 0.22;
const FLARE = 0.8;
/** The accent line's inset from the tablet's edge, as on the frame. */
const ACCENT_INSET = 6;

/** A pixel of the plaque counts as the plaque (not the mosaic around it) from this alpha on. */
export const PLAQUE_OPAQUE = 128;

/**
 * The plaque for a story window `innerWidth` wide. The wordmark stays on one line when that fits
 * the plaque's width, else it breaks before its partner (at " × " or the middle space); it is set
 * smaller only when even that is too wide.
 */
export async function buildPlaque(art: Art, variant: ArtVariantName, innerWidth: number): Promise<Plaque> {
  const colours = art.colours[variant];
  const accent = colours.pattern[colours.pattern.length - 1] as string;
  const line = WORDMARK_HEIGHT;
  const padX = Math.round(PADDING.x * line);
  const padY = Math.round(PADDING.y * line);
  const handle = Math.round(HANDLE * line);
  const textRoom = Math.floor(STORY_PLAQUE.maxWidth * innerWidth) - 2 * (handle + padX);
  // The band's own setting, for its size.
  const band = await wordmark(art, variant, { height: line, width: LAYOUT.width - 4 * LAYOUT.border });
  let dpi = band.info.textAutofitDpi ?? 72;
  const lines = band.info.width <= textRoom ? [art.wordmark] : brokenLines(art.wordmark);
  let text = await wordmark(art, variant, { dpi }, lines);
  while (text.info.width > textRoom && dpi > 24) {
    dpi = Math.floor((dpi * textRoom) / text.info.width);
    text = await wordmark(art, variant, { dpi }, lines);
  }
  const bodyWidth = text.info.width + 2 * padX;
  const height = text.info.height + 2 * padY;
  const width = bodyWidth + 2 * handle;
  const half = height / 2;
  const right = handle + bodyWidth;
  const outline = [
    `M${handle} 0H${right}V${half - NECK * half}`,
    `L${width} ${half - FLARE * half}V${half + FLARE * half}L${right} ${half + NECK * half}V${height}H${handle}`,
    `V${half + NECK * half}L0 ${half + FLARE * half}V${half - FLARE * half}L${handle} ${half - NECK * half}Z`,
  ].join('');
  const inset = ACCENT_INSET;
  const hole = Math.max(2, Math.round(line * 0.12));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <path fill="${colours.frame}" d="${outline}"/>
  <rect x="${handle + inset}" y="${inset}" width="${bodyWidth - 2 * inset}" height="${height - 2 * inset}"
    fill="none" stroke="${accent}" stroke-width="2"/>
  <circle cx="${handle * 0.45}" cy="${half}" r="${hole}" fill="${accent}"/>
  <circle cx="${width - handle * 0.45}" cy="${half}" r="${hole}" fill="${accent}"/>
</svg>`;
  const { data } = await sharp(Buffer.from(svg), { limitInputPixels: UPLOAD_LIMITS.maxPixels })
    .composite([
      {
        input: text.data,
        left: Math.round((width - text.info.width) / 2),
        top: Math.round((height - text.info.height) / 2),
      },
    ])
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const bottom = STORY_LAYOUT.height - STORY_LAYOUT.safeMargin - STORY_PLAQUE.gap;
  return {
    left: Math.round((STORY_LAYOUT.width - width) / 2),
    top: bottom - height,
    width,
    height,
    rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/** The wordmark in two lines: brand ×, then partner; or halved at the space nearest its middle. */
function brokenLines(text: string): string[] {
  const cross = text.indexOf(' × ');
  if (cross > 0) return [text.slice(0, cross + 2), text.slice(cross + 3)];
  const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
  if (spaces.length === 0) return [text];
  const middle = spaces.reduce((best, i) =>
    Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2) ? i : best,
  );
  return [text.slice(0, middle), text.slice(middle + 1)];
}

/** Lays the plaque over the story's RGB (`width` wide) in place, blending its anti-aliased edge. */
export function applyPlaque(rgb: Uint8Array, width: number, { left, top, width: w, height: h, rgba }: Plaque): void {
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w * 4, o = ((top + y) * width + left) * 3; x < w; x++, i += 4, o += 3) {
      const a = rgba[i + 3] as number;
      if (a === 0) continue;
      for (let c = 0; c < 3; c++) {
        rgb[o + c] = ((rgba[i + c] as number) * a + (rgb[o + c] as number) * (255 - a) + 127) / 255;
      }
    }
  }
}
