import type { Window } from '../../geometry.js';
import {
  LIGHT_RANGE,
  markFigure,
  quietGrid,
  SHEEN_R2,
  SHEEN_X,
  SHEEN_Y,
  type TileLook,
  withinMargin,
} from '../../paint.js';

/*
 * The JavaScript the engine's WebAssembly `drawTileParts` and `chamferDistance` replaced, kept as
 * the reference their tests compare with.
 */

/** Numbers per tile in `packedLook`. */
const PARAMS = 16;

/**
 * The look's per-tile numbers that drawing needs, side by side per tile: each run of pixels reads
 * them from one or two cache lines instead of a dozen arrays (a third of drawing's time is spent
 * starting runs).
 */
function packedLook(look: TileLook): Float64Array {
  const { count, rgb, joint, slopeX, base, slopeY, glass, bevel, inverseHalf, cx, cy, sheen } = look;
  const params = new Float64Array(count * PARAMS);
  for (let t = 0, p = 0; t < count; t++, p += PARAMS) {
    const range = glass[t] === 1 ? LIGHT_RANGE.glass : LIGHT_RANGE.stone;
    params[p] = rgb[t * 3] as number;
    params[p + 1] = rgb[t * 3 + 1] as number;
    params[p + 2] = rgb[t * 3 + 2] as number;
    params[p + 3] = joint[t * 3] as number;
    params[p + 4] = joint[t * 3 + 1] as number;
    params[p + 5] = joint[t * 3 + 2] as number;
    params[p + 6] = slopeX[t] as number;
    params[p + 7] = base[t] as number;
    params[p + 8] = slopeY[t] as number;
    params[p + 9] = range[0];
    params[p + 10] = range[1];
    params[p + 11] = bevel[t] as number;
    params[p + 12] = inverseHalf[t] as number;
    params[p + 13] = cx[t] as number;
    params[p + 14] = cy[t] as number;
    params[p + 15] = sheen[t] as number;
  }
  return params;
}

/**
 * Draws the tiles of a label map (`width`×`height`, one tile index per pixel) into `out` inside each
 * of `parts`, the look packed once; `lightRow` is the label map's row the light counts as row 0.
 */
export function drawTilesIn(
  labels: Uint16Array,
  width: number,
  height: number,
  look: TileLook,
  parts: readonly Window[],
  out: Uint8Array,
  lightRow = 0,
): void {
  const params = packedLook(look);
  for (const part of parts) drawPart(labels, width, height, params, look.wide, part, out, lightRow);
}

function drawPart(
  labels: Uint16Array,
  width: number,
  height: number,
  params: Float64Array,
  wideTile: Uint8Array,
  window: Window,
  out: Uint8Array,
  lightRow: number,
): void {
  // One and two pixels diagonally up-left (down-right with the opposite sign).
  const near = width + 1;
  const far = 2 * width + 2;
  // Row by row, in runs of one tile: the tile's colour and light are fetched once per run, and
  // each pixel of the run looks at its neighbours: it is a joint where the tile ends to its right
  // or below (for a wide tile also to its left or above), which finds the run's end on the way.
  // Narrow and wide tiles each get their own loop: a narrow one has neither a joint above nor a
  // second bevel pixel to look for. Colours are truncated as the byte store would truncate them,
  // but as integers, which store faster. The window keeps two pixels clear of the label map's
  // edges (the frame covers those), so no neighbour needs a bounds test.
  // The window's bounds as locals: callers pass windows of different shapes, and a polymorphic
  // property load in the run scan costs more than the scan itself.
  const { left, top, right, bottom } = window;
  if (left < 2 || top < 2 || right > width - 2 || bottom > height - 2) {
    throw new Error('tiles are drawn only two pixels or more inside the label map');
  }
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    for (let x = left; x < right; ) {
      const t = labels[row + x] as number;
      const wide = wideTile[t] === 1;
      const p = t * PARAMS;
      const r = params[p] as number;
      const g = params[p + 1] as number;
      const b = params[p + 2] as number;
      const jr = params[p + 3] as number;
      const jg = params[p + 4] as number;
      const jb = params[p + 5] as number;
      const lightX = params[p + 6] as number;
      const light0 = (params[p + 7] as number) + (params[p + 8] as number) * (y - lightRow);
      const low = params[p + 9] as number;
      const high = params[p + 10] as number;
      const bevel = params[p + 11] as number;
      const inverseHalf = params[p + 12] as number;
      // The pixel's place relative to the tile's centre in half-sizes, for the sheen; rows the
      // sheen's spot does not reach skip it.
      const ry = (y - lightRow + 0.5 - (params[p + 14] as number)) * inverseHalf;
      let rx = (x + 0.5 - (params[p + 13] as number)) * inverseHalf;
      const sy2 = (ry - SHEEN_Y) * (ry - SHEEN_Y);
      const sheen = sy2 < SHEEN_R2 ? (params[p + 15] as number) : 0;
      let px = x;
      let i = row + x;
      let o = i * 3;
      // Neighbours are carried along the run: the pixel below-right of one is below the next, and
      // the one above of one is above-left of the next.
      let below = labels[i + width] as number;
      let aboveLeft = labels[i - near] as number;
      if (!wide) {
        for (;;) {
          const next = labels[i + 1] as number;
          const belowRight = labels[i + near] as number;
          const belowHere = below;
          const aboveLeftHere = aboveLeft;
          below = belowRight;
          aboveLeft = labels[i - width] as number;
          if (next !== t || belowHere !== t) {
            out[o] = jr;
            out[o + 1] = jg;
            out[o + 2] = jb;
          } else {
            let raw = light0 + lightX * px;
            if (aboveLeftHere !== t) raw += bevel;
            if (belowRight !== t) raw -= bevel;
            if (sheen !== 0) {
              const q = 1 - ((rx - SHEEN_X) * (rx - SHEEN_X) + sy2) / SHEEN_R2;
              if (q > 0) raw += sheen * q * q;
            }
            const light = raw < low ? low : raw > high ? high : raw;
            const vr = r * light;
            const vg = g * light;
            const vb = b * light;
            out[o] = vr < 255 ? vr | 0 : 255;
            out[o + 1] = vg < 255 ? vg | 0 : 255;
            out[o + 2] = vb < 255 ? vb | 0 : 255;
          }
          px++;
          i++;
          o += 3;
          rx += inverseHalf;
          if (next !== t || px === right) break;
        }
      } else {
        const halfBevel = bevel * 0.5;
        let first = labels[i - 1] !== t;
        for (;;) {
          const next = labels[i + 1] as number;
          const belowRight = labels[i + near] as number;
          const above = labels[i - width] as number;
          const belowHere = below;
          const aboveLeftHere = aboveLeft;
          below = belowRight;
          aboveLeft = above;
          if (first || next !== t || belowHere !== t || above !== t) {
            first = false;
            out[o] = jr;
            out[o + 1] = jg;
            out[o + 2] = jb;
          } else {
            let raw = light0 + lightX * px;
            if (aboveLeftHere !== t) raw += bevel;
            else if (labels[i - far] !== t) raw += halfBevel;
            if (belowRight !== t) raw -= bevel;
            else if (labels[i + far] !== t) raw -= halfBevel;
            if (sheen !== 0) {
              const q = 1 - ((rx - SHEEN_X) * (rx - SHEEN_X) + sy2) / SHEEN_R2;
              if (q > 0) raw += sheen * q * q;
            }
            const light = raw < low ? low : raw > high ? high : raw;
            const vr = r * light;
            const vg = g * light;
            const vb = b * light;
            out[o] = vr < 255 ? vr | 0 : 255;
            out[o + 1] = vg < 255 ? vg | 0 : 255;
            out[o + 2] = vb < 255 ? vb | 0 : 255;
          }
          px++;
          i++;
          o += 3;
          rx += inverseHalf;
          if (next !== t || px === right) break;
        }
      }
      x = px;
    }
  }
}

/** `nearFigure` (`paint.ts`) with the JavaScript chamfer passes. */
export function nearFigure(
  count: number,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  figure: (t: number) => boolean,
  area: Window,
): (x: number, y: number) => boolean {
  const { columns, rows } = quietGrid(area);
  const distance = markFigure(new Float32Array(columns * rows), count, x, y, figure, area);
  // Each cell keeps the least of its own distance and its visited neighbours' plus the step, held
  // in a local (rounded to the grid's float32 whenever it changes, as a store would round it).
  const diagonal = Math.SQRT2;
  const least = (d: number, candidate: number) => (candidate < d ? Math.fround(candidate) : d);
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < columns; x++) {
      const i = y * columns + x;
      let d = distance[i] as number;
      if (x > 0) d = least(d, (distance[i - 1] as number) + 1);
      if (y > 0) {
        d = least(d, (distance[i - columns] as number) + 1);
        if (x > 0) d = least(d, (distance[i - columns - 1] as number) + diagonal);
        if (x < columns - 1) d = least(d, (distance[i - columns + 1] as number) + diagonal);
      }
      distance[i] = d;
    }
  for (let y = rows - 1; y >= 0; y--)
    for (let x = columns - 1; x >= 0; x--) {
      const i = y * columns + x;
      let d = distance[i] as number;
      if (x < columns - 1) d = least(d, (distance[i + 1] as number) + 1);
      if (y < rows - 1) {
        d = least(d, (distance[i + columns] as number) + 1);
        if (x < columns - 1) d = least(d, (distance[i + columns + 1] as number) + diagonal);
        if (x > 0) d = least(d, (distance[i + columns - 1] as number) + diagonal);
      }
      distance[i] = d;
    }
  return withinMargin(distance, area);
}
