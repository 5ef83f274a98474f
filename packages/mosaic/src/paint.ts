import { nearestColour, type Palette, parseHex } from './colour.js';
import type { Point } from './face.js';
import { patternIndex } from './pattern.js';
import { scratch } from './scratch.js';
import type { Tiles } from './superpixels.js';

export interface PaintStyle {
  portrait: Palette;
  pattern: Palette;
  grout: string;
  /** Pattern index of the row that outlines the visitor. */
  outline: number;
}

/** Mean person share above which a background tile counts as touching the silhouette. */
const OUTLINE_TOUCH = 0.12;
/** Tiles at least this wide (artwork pixels) get two-pixel joints. */
const WIDE_JOINT = 20;
/** Strength of the light falling across each tile from the top left. */
const LIGHT = 0.07;
/** Spread of each tile's own brightness, like hand-cut glass or stone. */
const JITTER = 0.04;
/**
 * Joints inside the portrait are the tile's own colour in shadow, like tinted grout: a light grout
 * line over every small tile would wash the face out (and cost it its likeness).
 */
const PORTRAIT_JOINT_SHADE = 0.72;
/**
 * Lightness counts three times as much as hue when matching a tile to the palette: a face is read
 * from its light and shade, so a slightly off hue costs far less likeness than a wrong value.
 */
const LIGHTNESS_WEIGHT = 3;

/**
 * Paints every tile in one palette colour (nearest in CIELAB to the photo under it, or the
 * campaign pattern for the background) with a soft light across it, and draws the grout joints.
 * Returns the palette index per tile too, so tests can check each tile is one palette colour.
 */
export function paintTiles(
  tiles: Tiles,
  width: number,
  height: number,
  style: PaintStyle,
  centre: Point,
  random: () => number,
): { rgb: Uint8Array; colours: Uint8Array; personTiles: number } {
  const { count, labels, spacing } = tiles;
  const colours = new Uint8Array(count);
  const tileRgb = new Float32Array(count * 3);
  // Light across a tile is linear in x and y: light = base + dx·x + dy·y.
  const base = new Float32Array(count);
  const slopeX = new Float32Array(count);
  const slopeY = new Float32Array(count);
  const isPerson = new Uint8Array(count);
  let personTiles = 0;
  for (let t = 0; t < count; t++) {
    const cx = tiles.x[t] as number;
    const cy = tiles.y[t] as number;
    const light = LIGHT / (spacing[t] as number);
    slopeX[t] = -0.6 * light;
    slopeY[t] = -0.8 * light;
    base[t] = 1 + (random() - 0.5) * 2 * JITTER + (0.6 * cx + 0.8 * cy) * light;
    let palette: Palette;
    if ((tiles.person[t] as number) >= 0.5) {
      palette = style.portrait;
      colours[t] = nearestColour(
        palette,
        tiles.lab[t * 3] as number,
        tiles.lab[t * 3 + 1] as number,
        tiles.lab[t * 3 + 2] as number,
        LIGHTNESS_WEIGHT,
      );
      isPerson[t] = 1;
      personTiles++;
    } else {
      palette = style.pattern;
      // Background tiles that touch the silhouette outline the figure, as mosaicists do.
      colours[t] =
        (tiles.person[t] as number) >= OUTLINE_TOUCH ? style.outline : patternIndex(cx, cy, centre, palette.size);
    }
    const c = colours[t] as number;
    tileRgb[t * 3] = palette.rgb[c * 3] as number;
    tileRgb[t * 3 + 1] = palette.rgb[c * 3 + 1] as number;
    tileRgb[t * 3 + 2] = palette.rgb[c * 3 + 2] as number;
  }

  const [gr, gg, gb] = parseHex(style.grout);
  const out = scratch('painted', Uint8Array, width * height * 3);
  const wideTile = new Uint8Array(count);
  for (let t = 0; t < count; t++) wideTile[t] = (spacing[t] as number) >= WIDE_JOINT ? 1 : 0;
  // Joint colour per tile: its own colour in shadow inside the portrait, the grout elsewhere.
  const jointRgb = new Float32Array(count * 3);
  for (let t = 0; t < count; t++) {
    for (let c = 0; c < 3; c++) {
      jointRgb[t * 3 + c] = isPerson[t]
        ? (tileRgb[t * 3 + c] as number) * PORTRAIT_JOINT_SHADE
        : ([gr, gg, gb][c] as number);
    }
  }
  let t = -1;
  let wide = false;
  let r = 0;
  let g = 0;
  let b = 0;
  let light0 = 0;
  let lightX = 0;
  for (let y = 0, i = 0; y < height; y++) {
    const lastRow = y + 1 === height;
    for (let x = 0; x < width; x++, i++) {
      const label = labels[i] as number;
      if (label !== t) {
        // Runs of one tile are long: fetch its colour and light only when the tile changes.
        t = label;
        wide = wideTile[t] === 1;
        r = tileRgb[t * 3] as number;
        g = tileRgb[t * 3 + 1] as number;
        b = tileRgb[t * 3 + 2] as number;
        lightX = slopeX[t] as number;
        light0 = (base[t] as number) + (slopeY[t] as number) * y;
      }
      const o = i * 3;
      if (
        (x + 1 < width && labels[i + 1] !== t) ||
        (!lastRow && labels[i + width] !== t) ||
        (wide && ((x > 0 && labels[i - 1] !== t) || (y > 0 && labels[i - width] !== t)))
      ) {
        out[o] = jointRgb[t * 3] as number;
        out[o + 1] = jointRgb[t * 3 + 1] as number;
        out[o + 2] = jointRgb[t * 3 + 2] as number;
        continue;
      }
      // Kept within ±18 %: a tile larger than its nominal size must not run into dark or bright.
      const raw = light0 + lightX * x;
      const light = Math.min(1.18, Math.max(0.82, raw));
      const vr = r * light;
      const vg = g * light;
      const vb = b * light;
      out[o] = Math.min(255, vr);
      out[o + 1] = Math.min(255, vg);
      out[o + 2] = Math.min(255, vb);
    }
    t = -1;
  }
  return { rgb: out, colours, personTiles };
}
