import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { type Art, type ArtVariantName, perArt } from './art.js';
import { LAYOUT, POST_WINDOW, STORY_LAYOUT } from './layout.js';
import { applyPlaque, buildPlaque, type Plaque } from './plaque.js';
import { WORDMARK_HEIGHT, wordmark } from './wordmark.js';

/**
 * The campaign frame: a border in the variant's frame colour with a fine accent line, and the
 * brand × partner wordmark set in Cinzel (inscriptional capitals, shipped as a TTF in an npm
 * package so the text looks the same on every machine). Built once per variant, format and
 * thread, then copied over each artwork. On the 4:5 the wordmark sits on a band at the bottom;
 * the story has one window with the border all round, and its wordmark on a plaque laid in the
 * mosaic (`plaque.ts`), clear of the rows the story's own controls cover.
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
  /** The story's wordmark plaque, drawn over the mosaic inside the window. */
  plaque?: Plaque;
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

/** Where the windows and the wordmark sit in each format. */
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
  return {
    width: STORY_LAYOUT.width,
    height: STORY_LAYOUT.height,
    windows: [{ top: border, bottom: STORY_LAYOUT.height - border }],
    text: undefined,
  };
}

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
  let frame = sharp(Buffer.from(svg), { limitInputPixels: UPLOAD_LIMITS.maxPixels });
  if (band) {
    const text = await wordmark(art, variant, { height: WORDMARK_HEIGHT, width: width - 4 * border });
    frame = frame.composite([
      {
        input: text.data,
        left: Math.round((width - text.info.width) / 2),
        top: Math.round(band.top + (band.height - text.info.height) / 2),
      },
    ]);
  }
  const { data } = await frame.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const overlay = { width, height, innerLeft, innerRight, windows };
  const stretches = stretchesOf(frameRgb(rgba, overlay, `${variant} ${format}`), overlay);
  if (format === 'post') return { ...overlay, stretches };
  return { ...overlay, stretches, plaque: await buildPlaque(art, variant, innerRight - innerLeft) };
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

/** Puts the frame (and the story's plaque) over an artwork of the frame's size in place. */
export function applyFrame(rgb: Uint8Array, { stretches, width, plaque }: FrameOverlay): void {
  for (const stretch of stretches) rgb.set(stretch.rgb, stretch.at);
  if (plaque) applyPlaque(rgb, width, plaque);
}
