import type { Window } from '../../geometry.js';
import { NO_TILE } from '../../refine.js';
import { type Directions, EXTENTS, type Outlines, STEP } from '../../tile-outlines.js';

/** The JavaScript the engine's WebAssembly `outlineTiles` replaced, kept as the reference its test compares with. */
export function tileOutlines(
  labels: Uint16Array,
  width: number,
  window: Window,
  count: number,
  { cos, sin }: Directions,
  measured: (tile: number) => boolean,
): Outlines {
  const present = new Uint8Array(count);
  // Per tile: the four directions (along, across, and the diagonals between), then the extents.
  const axes = new Float64Array(count * 8);
  const extents = new Float64Array(count * EXTENTS);
  const wanted = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    wanted[t] = measured(t) ? 1 : 0;
    const c = cos[t] as number;
    const s = sin[t] as number;
    const a = t * 8;
    axes[a] = c;
    axes[a + 1] = s;
    axes[a + 2] = -s;
    axes[a + 3] = c;
    axes[a + 4] = (c - s) * Math.SQRT1_2;
    axes[a + 5] = (s + c) * Math.SQRT1_2;
    axes[a + 6] = (c + s) * Math.SQRT1_2;
    axes[a + 7] = (s - c) * Math.SQRT1_2;
    for (let k = 0; k < 4; k++) {
      extents[t * EXTENTS + k * 2] = Number.POSITIVE_INFINITY;
      extents[t * EXTENTS + k * 2 + 1] = Number.NEGATIVE_INFINITY;
    }
  }
  // The window's sides as locals: a property load in the run scan would cost more than the scan.
  const { left: x0, top: y0, right: x1, bottom: y1 } = window;
  for (let y = y0; y < y1; y += STEP) {
    const row = y * width;
    // The run stands for the rows from y to y + STEP (its middle line ± half that).
    const middle = Math.min(y + STEP, y1) - y;
    const yc = y + middle / 2;
    const half = middle / 2;
    for (let x = x0; x < x1; ) {
      const t = labels[row + x] as number;
      const start = x;
      x++;
      while (x < x1 && labels[row + x] === t) x++;
      if (t === NO_TILE || t >= count) continue;
      present[t] = 1;
      if (wanted[t] === 0) continue;
      const a = t * 8;
      const e = t * EXTENTS;
      for (let k = 0; k < 8; k += 2) {
        const ax = axes[a + k] as number;
        const ay = axes[a + k + 1] as number;
        const across = ay * yc;
        const spread = (ay < 0 ? -ay : ay) * half;
        const p = ax * start;
        const q = ax * x;
        const lo = (p < q ? p : q) + across - spread;
        const hi = (p < q ? q : p) + across + spread;
        if (lo < (extents[e + k] as number)) extents[e + k] = lo;
        if (hi > (extents[e + k + 1] as number)) extents[e + k + 1] = hi;
      }
    }
  }
  const cx = new Int16Array(count);
  const cy = new Int16Array(count);
  const cornerStart = new Uint32Array(count + 1);
  const corners = new Int8Array(count * 16);
  const polygon = new Float64Array(16);
  let used = 0;
  for (let t = 0; t < count; t++) {
    cornerStart[t] = used;
    if (wanted[t] === 0 || !Number.isFinite(extents[t * EXTENTS] as number)) continue;
    const n = octagon(axes, extents, t, polygon);
    let minX = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const x = polygon[i * 2] as number;
      const y = polygon[i * 2 + 1] as number;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const ox = Math.round((minX + maxX) / 2);
    const oy = Math.round((minY + maxY) / 2);
    cx[t] = ox;
    cy[t] = oy;
    for (let i = 0; i < n; i++) {
      const dx = clampByte(Math.round((polygon[i * 2] as number) - ox));
      const dy = clampByte(Math.round((polygon[i * 2 + 1] as number) - oy));
      // Rounding can make two corners one.
      if (used > (cornerStart[t] as number) && corners[used * 2 - 2] === dx && corners[used * 2 - 1] === dy) continue;
      corners[used * 2] = dx;
      corners[used * 2 + 1] = dy;
      used++;
    }
    const first = cornerStart[t] as number;
    if (
      used - first > 1 &&
      corners[first * 2] === corners[used * 2 - 2] &&
      corners[first * 2 + 1] === corners[used * 2 - 1]
    )
      used--;
    // A sliver too thin to round to a polygon keeps a pixel-sized one.
    while (used - first < 3) {
      const k = used - first;
      corners[used * 2] = k === 1 ? 1 : 0;
      corners[used * 2 + 1] = k === 2 ? 1 : 0;
      used++;
    }
  }
  cornerStart[count] = used;
  return { present, cx, cy, cornerStart, corners: corners.slice(0, used * 2) };
}

function clampByte(v: number): number {
  return v < -128 ? -128 : v > 127 ? 127 : v;
}

/**
 * The corners of tile t's octagon into `out`, clockwise on screen; returns how many. The extents
 * along the row and across it make a rectangle in the tile's frame; at each of its corners the
 * diagonal extent cuts it off where the tile does not reach into that corner.
 */
function octagon(axes: Float64Array, extents: Float64Array, t: number, out: Float64Array): number {
  const a = t * 8;
  const e = t * EXTENTS;
  const c = axes[a] as number;
  const s = axes[a + 1] as number;
  const uLo = extents[e] as number;
  const uHi = extents[e + 1] as number;
  const vLo = extents[e + 2] as number;
  const vHi = extents[e + 3] as number;
  // Diagonal extents in the frame: p = (u + v)/√2 along the first diagonal, q = (u − v)/√2 along the second.
  const pLo = (extents[e + 4] as number) * Math.SQRT2;
  const pHi = (extents[e + 5] as number) * Math.SQRT2;
  const qLo = (extents[e + 6] as number) * Math.SQRT2;
  const qHi = (extents[e + 7] as number) * Math.SQRT2;
  // The corners are first written in the tile's frame (u, v), then turned to the screen in one
  // pass: a helper called per corner with doubles, or a closure, boxed its arguments (or its
  // context's) on every corner of every tile of every render.
  let n = 0;
  // Round the rectangle (u along, v across): (uHi, vLo) → (uHi, vHi) → (uLo, vHi) → (uLo, vLo).
  // Corner (uHi, vLo): u − v at most qHi.
  if (uHi - vLo > qHi) {
    out[n++] = uHi - (uHi - vLo - qHi);
    out[n++] = vLo;
    out[n++] = uHi;
    out[n++] = uHi - qHi;
  } else {
    out[n++] = uHi;
    out[n++] = vLo;
  }
  // Corner (uHi, vHi): u + v at most pHi.
  if (uHi + vHi > pHi) {
    out[n++] = uHi;
    out[n++] = pHi - uHi;
    out[n++] = pHi - vHi;
    out[n++] = vHi;
  } else {
    out[n++] = uHi;
    out[n++] = vHi;
  }
  // Corner (uLo, vHi): u − v at least qLo.
  if (uLo - vHi < qLo) {
    out[n++] = qLo + vHi;
    out[n++] = vHi;
    out[n++] = uLo;
    out[n++] = uLo - qLo;
  } else {
    out[n++] = uLo;
    out[n++] = vHi;
  }
  // Corner (uLo, vLo): u + v at least pLo.
  if (uLo + vLo < pLo) {
    out[n++] = uLo;
    out[n++] = pLo - uLo;
    out[n++] = pLo - vLo;
    out[n++] = vLo;
  } else {
    out[n++] = uLo;
    out[n++] = vLo;
  }
  for (let i = 0; i < n; i += 2) {
    const u = out[i] as number;
    const v = out[i + 1] as number;
    out[i] = u * c - v * s;
    out[i + 1] = u * s + v * c;
  }
  n /= 2;
  return n;
}
