import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { type Art, type ArtVariantName, perArt } from './art.js';
import { LAYOUT, POST_WINDOW, STORY_LAYOUT } from './layout.js';

/**
 * The campaign frame: a border in the variant's frame colour with a fine accent line, and a band
 * carrying the brand × partner wordmark set in Cinzel (inscriptional capitals, shipped as a TTF in
 * an npm package so the text looks the same on every machine). Built once per variant, format and
 * thread, then copied over each artwork. On the 4:5 the band is at the bottom; the story has the
 * 4:5's frame in its middle, with the band as a bar across, and a window of pattern above and below.
 *
 * The frame is opaque and its windows clear (checked when it is built), so the mosaic is painted
 * only inside the windows and the frame keeps just its own pixels: 0.6 MB per variant instead of
 * an artwork-sized RGBA image of 5.8 MB.
 */
export interface FrameOverlay {
  width: number;
  height: number;
  /** The columns every window spans, right exclusive. */
  innerLeft: number;
  innerRight: number;
  /** The open windows, top to bottom, as row ranges (bottom exclusive): the mosaic shows there. */
  windows: readonly Rows[];
  /**
   * The frame's RGB outside the windows, as the stretches copied over the artwork: from one window
   * row's right edge to the next window row's left edge the frame is one stretch, in the artwork as
   * in the frame's own pixels. Cut once here, so framing a render allocates nothing.
   */
  stretches: readonly Stretch[];
}

export interface Stretch {
  /** The frame's pixels (RGB) of this stretch. */
  rgb: Uint8Array;
  /** Where they start in the artwork's RGB. */
  at: number;
}

export interface Rows {
  top: number;
  bottom: number;
}

export type FrameFormat = 'post' | 'story';

/** Where the windows and the wordmark band sit in each format. */
function shapeOf(format: FrameFormat) {
  const { border, band } = LAYOUT;
  if (format === 'post') {
    const bandTop = LAYOUT.height - band;
    return {
      width: LAYOUT.width,
      height: LAYOUT.height,
      windows: [{ top: POST_WINDOW.top, bottom: POST_WINDOW.bottom }],
      // The band's lower part is the frame's bottom edge: the text sits in the rest.
      text: { top: bandTop, height: band - border / 2 },
    };
  }
  const bandTop = STORY_LAYOUT.offset + LAYOUT.height - band;
  const bandBottom = STORY_LAYOUT.offset + LAYOUT.height;
  return {
    width: STORY_LAYOUT.width,
    height: STORY_LAYOUT.height,
    windows: [
      { top: border, bottom: STORY_LAYOUT.offset },
      { top: STORY_LAYOUT.offset + border, bottom: bandTop },
      { top: bandBottom, bottom: STORY_LAYOUT.height - border },
    ],
    text: { top: bandTop, height: band },
  };
}

const require = createRequire(import.meta.url);
const fontFile = join(dirname(require.resolve('@expo-google-fonts/cinzel')), '600SemiBold', 'Cinzel_600SemiBold.ttf');
const overlays = perArt(() => new Map<string, Promise<FrameOverlay>>());

export function frameOverlay(art: Art, variant: ArtVariantName, format: FrameFormat = 'post'): Promise<FrameOverlay> {
  const built = overlays(art);
  const key = `${variant} ${format}`;
  let overlay = built.get(key);
  if (!overlay) {
    overlay = buildOverlay(art, variant, format);
    built.set(key, overlay);
  }
  return overlay;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function buildOverlay(art: Art, variant: ArtVariantName, format: FrameFormat): Promise<FrameOverlay> {
  const colours = art.colours[variant];
  const accent = colours.pattern[colours.pattern.length - 1] as string;
  const { border } = LAYOUT;
  const { width, height, windows, text: band } = shapeOf(format);
  const innerLeft = border;
  const innerRight = width - border;
  const holes = windows.map(({ top, bottom }) => `M${innerLeft} ${top}V${bottom}H${innerRight}V${top}Z`).join(' ');
  const accents = windows
    .map(
      ({ top, bottom }) =>
        `<rect x="${innerLeft - 5}" y="${top - 5}" width="${innerRight - innerLeft + 10}" height="${bottom - top + 10}"
    fill="none" stroke="${accent}" stroke-width="2"/>`,
    )
    .join('\n  ');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <path fill-rule="evenodd" fill="${colours.frame}" d="M0 0H${width}V${height}H0Z ${holes}"/>
  ${accents}
</svg>`;
  const textHeight = Math.round(LAYOUT.band * 0.34);
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
        top: Math.round(band.top + (band.height - text.info.height) / 2),
      },
    ])
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const overlay = { width, height, innerLeft, innerRight, windows };
  return { ...overlay, stretches: stretchesOf(frameRgb(rgba, overlay, `${variant} ${format}`), overlay) };
}

/** Whether row `y` passes through one of the windows. */
export function isOpenRow(windows: readonly Rows[], y: number): boolean {
  for (const { top, bottom } of windows) if (y >= top && y < bottom) return true;
  return false;
}

/** The frame's own pixels, after checking that it is opaque outside its windows and clear inside. */
function frameRgb(rgba: Uint8Array, overlay: Omit<FrameOverlay, 'stretches'>, name: string): Uint8Array {
  const { width, height, innerLeft, innerRight, windows } = overlay;
  const open = windows.reduce((sum, { top, bottom }) => sum + (bottom - top), 0) * (innerRight - innerLeft);
  const rgb = new Uint8Array((width * height - open) * 3);
  let k = 0;
  for (let y = 0; y < height; y++) {
    const rows = isOpenRow(windows, y);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inside = rows && x >= innerLeft && x < innerRight;
      if (rgba[i + 3] !== (inside ? 0 : 255)) {
        throw new Error(`the ${name} frame must be opaque outside its windows and clear inside (pixel ${x}, ${y})`);
      }
      if (inside) continue;
      rgb[k++] = rgba[i] as number;
      rgb[k++] = rgba[i + 1] as number;
      rgb[k++] = rgba[i + 2] as number;
    }
  }
  return rgb;
}

/**
 * The frame's own pixels (full rows outside every window, the left and right strips beside a window
 * row by row, in raster order) cut into the stretches between window rows.
 */
function stretchesOf(frame: Uint8Array, overlay: Omit<FrameOverlay, 'stretches'>): Stretch[] {
  const { width, height, innerLeft, innerRight, windows } = overlay;
  const stretches: Stretch[] = [];
  let from = 0;
  let at = 0;
  for (let y = 0; y < height; y++) {
    if (!isOpenRow(windows, y)) continue;
    const length = (y * width + innerLeft) * 3 - at;
    stretches.push({ rgb: frame.subarray(from, from + length), at });
    from += length;
    at = (y * width + innerRight) * 3;
  }
  stretches.push({ rgb: frame.subarray(from), at });
  return stretches;
}

/** Puts the frame over an artwork of the frame's size in place. */
export function applyFrame(rgb: Uint8Array, { stretches }: FrameOverlay): void {
  for (const stretch of stretches) rgb.set(stretch.rgb, stretch.at);
}
