import type { Window } from './tile-shapes.js';

/**
 * The joints as a viewer sees them in the painted artwork, whatever the painter draws them with:
 * a pixel of a tile is joint when it departs from the tile's own interior colour by more than
 * `JOINT_CONTRAST` of that colour's strongest channel (at least `JOINT_FLOOR` levels) within
 * `JOINT_REACH` of another tile: grout, a joint in the tile's shadow, or a bevel dark enough to read
 * as one.
 */
export const JOINT_CONTRAST = 0.14;
export const JOINT_FLOOR = 6;
/** Joint pixels lie at most this far (pixels, along a row or column) from another tile. */
export const JOINT_REACH = 3;
/** Joint runs are followed at most this far into each tile. */
const MAX_HALF_WIDTH = 8;

export interface GroutMeasure {
  /** Share of the window's pixels that are joint. */
  coverage: number;
  /** Share of tile borders (crossed at right angles by a row or column) that show a joint at all. */
  visible: number;
  /** Joint width across the borders that show one, in pixels: median, mean, coefficient of variation. */
  medianWidth: number;
  meanWidth: number;
  widthCv: number;
  /** Border crossings measured. */
  crossings: number;
}

/** Which pixels of the window are joint (1), from the painted RGB and the tile labels. */
export function jointPixels(labels: Uint16Array, painted: Uint8Array, width: number, window: Window): Uint8Array {
  const { left, top, right, bottom } = window;
  let tiles = 0;
  for (let y = top; y < bottom; y++)
    for (let x = left; x < right; x++) tiles = Math.max(tiles, (labels[y * width + x] as number) + 1);
  // Each tile's interior: its pixels whose neighbours up to `reach` away in x and y are the same tile.
  const interior = (reach: number) => {
    const sum = new Float64Array(tiles * 4);
    for (let y = top + reach; y < bottom - reach; y++) {
      for (let x = left + reach; x < right - reach; x++) {
        const i = y * width + x;
        const t = labels[i] as number;
        let inside = true;
        for (let k = 1; k <= reach && inside; k++) {
          inside =
            labels[i - k] === t && labels[i + k] === t && labels[i - k * width] === t && labels[i + k * width] === t;
        }
        if (!inside) continue;
        for (let c = 0; c < 3; c++) sum[t * 4 + c] = (sum[t * 4 + c] as number) + (painted[i * 3 + c] as number);
        sum[t * 4 + 3] = (sum[t * 4 + 3] as number) + 1;
      }
    }
    return sum;
  };
  const core = interior(2);
  const near = interior(1);
  const reference = new Float32Array(tiles * 3).fill(-1);
  for (let t = 0; t < tiles; t++) {
    const from = (core[t * 4 + 3] as number) > 0 ? core : (near[t * 4 + 3] as number) > 0 ? near : undefined;
    if (!from) continue;
    for (let c = 0; c < 3; c++) reference[t * 3 + c] = (from[t * 4 + c] as number) / (from[t * 4 + 3] as number);
  }
  // A joint runs along a border: a highlight or a spot of sheen inside a tile is not one.
  const nearBorder = (i: number, x: number, y: number) => {
    const t = labels[i];
    for (let k = 1; k <= JOINT_REACH; k++) {
      if (x - k >= left && labels[i - k] !== t) return true;
      if (x + k < right && labels[i + k] !== t) return true;
      if (y - k >= top && labels[i - k * width] !== t) return true;
      if (y + k < bottom && labels[i + k * width] !== t) return true;
    }
    return false;
  };
  const joint = new Uint8Array(labels.length);
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const i = y * width + x;
      const t = labels[i] as number;
      const r = reference[t * 3] as number;
      if (r < 0) continue;
      const g = reference[t * 3 + 1] as number;
      const b = reference[t * 3 + 2] as number;
      const limit = Math.max(JOINT_FLOOR, JOINT_CONTRAST * Math.max(r, g, b));
      const departs = Math.max(
        Math.abs((painted[i * 3] as number) - r),
        Math.abs((painted[i * 3 + 1] as number) - g),
        Math.abs((painted[i * 3 + 2] as number) - b),
      );
      if (departs > limit && nearBorder(i, x, y)) joint[i] = 1;
    }
  }
  return joint;
}

/**
 * Grout coverage and evenness. Widths are read along rows across borders that run within about
 * 25° of vertical (the same two tiles two rows above and below), and along columns across
 * near-horizontal ones, so each crossing is close to a right angle.
 */
export function groutOf(labels: Uint16Array, painted: Uint8Array, width: number, window: Window): GroutMeasure {
  const joint = jointPixels(labels, painted, width, window);
  const { left, top, right, bottom } = window;
  let jointCount = 0;
  for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) jointCount += joint[y * width + x] as number;
  const widths: number[] = [];
  let crossings = 0;
  // From the border between pixel i (tile a) and i + step (tile b), the joint run into each tile.
  const cross = (i: number, step: number, side: number) => {
    const a = labels[i] as number;
    const b = labels[i + step] as number;
    if (a === b) return;
    if (
      labels[i - 2 * side] !== a ||
      labels[i + 2 * side] !== a ||
      labels[i + step - 2 * side] !== b ||
      labels[i + step + 2 * side] !== b
    ) {
      return;
    }
    crossings++;
    let run = 0;
    for (let k = 0, j = i; k < MAX_HALF_WIDTH && labels[j] === a && joint[j]; k++, j -= step) run++;
    for (let k = 0, j = i + step; k < MAX_HALF_WIDTH && labels[j] === b && joint[j]; k++, j += step) run++;
    if (run > 0) widths.push(run);
  };
  for (let y = top + 2; y < bottom - 2; y++) {
    for (let x = left + MAX_HALF_WIDTH; x < right - MAX_HALF_WIDTH - 1; x++) cross(y * width + x, 1, width);
  }
  for (let y = top + MAX_HALF_WIDTH; y < bottom - MAX_HALF_WIDTH - 1; y++) {
    for (let x = left + 2; x < right - 2; x++) cross(y * width + x, width, 1);
  }
  widths.sort((p, q) => p - q);
  const mean = widths.reduce((s, v) => s + v, 0) / Math.max(1, widths.length);
  const variance = widths.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, widths.length);
  return {
    coverage: jointCount / ((right - left) * (bottom - top)),
    visible: crossings ? widths.length / crossings : 0,
    medianWidth: widths[Math.floor(widths.length / 2)] ?? 0,
    meanWidth: mean,
    widthCv: mean > 0 ? Math.sqrt(variance) / mean : 0,
    crossings,
  };
}
