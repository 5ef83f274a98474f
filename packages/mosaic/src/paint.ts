import { nearestColour, type Palette, parseHex, rgbToLab } from './colour.js';
import type { Point } from './face.js';
import { patternIndex } from './pattern.js';
import type { Tiles } from './superpixels.js';

export interface PaintStyle {
  portrait: Palette;
  pattern: Palette;
  grout: string;
  /** How much of the grout colour covers a joint inside the portrait (the rest is the tile's own). */
  portraitGrout: number;
}

/** Tiles at least this wide (artwork pixels) get two-pixel joints. */
const WIDE_JOINT = 20;
/** Strength of the light falling across each tile from the top left. */
const LIGHT = 0.11;
/** Spread of each tile's own brightness, like hand-cut glass or stone. */
const JITTER = 0.07;

/**
 * Paints every tile in one palette colour (nearest in CIELAB to the photo under it, or the
 * campaign pattern for the background) with a soft light across it, and draws the grout joints.
 * Returns the palette index per tile too, so tests can check each tile is one palette colour.
 */
export function paintTiles(
  tiles: Tiles,
  photo: Uint8Array,
  width: number,
  height: number,
  style: PaintStyle,
  centre: Point,
  random: () => number,
): { rgb: Uint8Array; colours: Uint8Array; personTiles: number } {
  const { count, labels, spacing } = tiles;
  const sums = new Float64Array(count * 6);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const o = (labels[i] as number) * 6;
      sums[o] = (sums[o] as number) + (photo[i * 3] as number);
      sums[o + 1] = (sums[o + 1] as number) + (photo[i * 3 + 1] as number);
      sums[o + 2] = (sums[o + 2] as number) + (photo[i * 3 + 2] as number);
      sums[o + 3] = (sums[o + 3] as number) + 1;
      sums[o + 4] = (sums[o + 4] as number) + x;
      sums[o + 5] = (sums[o + 5] as number) + y;
    }
  }
  const colours = new Uint8Array(count);
  const tileRgb = new Float32Array(count * 3);
  const cx = new Float32Array(count);
  const cy = new Float32Array(count);
  const jitter = new Float32Array(count);
  const isPerson = new Uint8Array(count);
  const lab = new Float32Array(3);
  let personTiles = 0;
  for (let t = 0; t < count; t++) {
    const n = Math.max(1, sums[t * 6 + 3] as number);
    cx[t] = (sums[t * 6 + 4] as number) / n;
    cy[t] = (sums[t * 6 + 5] as number) / n;
    jitter[t] = (random() - 0.5) * 2 * JITTER;
    let palette: Palette;
    if ((tiles.person[t] as number) >= 0.5) {
      rgbToLab(
        Math.round((sums[t * 6] as number) / n),
        Math.round((sums[t * 6 + 1] as number) / n),
        Math.round((sums[t * 6 + 2] as number) / n),
        lab,
        0,
      );
      palette = style.portrait;
      colours[t] = nearestColour(palette, lab[0] as number, lab[1] as number, lab[2] as number);
      isPerson[t] = 1;
      personTiles++;
    } else {
      palette = style.pattern;
      colours[t] = patternIndex(cx[t] as number, cy[t] as number, centre, palette.size);
    }
    const c = colours[t] as number;
    tileRgb[t * 3] = palette.rgb[c * 3] as number;
    tileRgb[t * 3 + 1] = palette.rgb[c * 3 + 1] as number;
    tileRgb[t * 3 + 2] = palette.rgb[c * 3 + 2] as number;
  }

  const [gr, gg, gb] = parseHex(style.grout);
  const out = new Uint8Array(width * height * 3);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const t = labels[i] as number;
      const wide = (spacing[t] as number) >= WIDE_JOINT;
      const joint =
        (x + 1 < width && labels[i + 1] !== t) ||
        (y + 1 < height && labels[i + width] !== t) ||
        (wide && x > 0 && labels[i - 1] !== t) ||
        (wide && y > 0 && labels[i - width] !== t);
      const r = tileRgb[t * 3] as number;
      const g = tileRgb[t * 3 + 1] as number;
      const b = tileRgb[t * 3 + 2] as number;
      const o = i * 3;
      if (joint) {
        const k = isPerson[t] ? style.portraitGrout : 1;
        out[o] = r + (gr - r) * k;
        out[o + 1] = g + (gg - g) * k;
        out[o + 2] = b + (gb - b) * k;
        continue;
      }
      const light =
        1 +
        (jitter[t] as number) -
        (LIGHT * ((x - (cx[t] as number)) * 0.6 + (y - (cy[t] as number)) * 0.8)) / (spacing[t] as number);
      out[o] = Math.min(255, r * light);
      out[o + 1] = Math.min(255, g * light);
      out[o + 2] = Math.min(255, b * light);
    }
  }
  return { rgb: out, colours, personTiles };
}
