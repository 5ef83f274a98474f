import { CELL, centre } from './shared/guide-grid';
import { hi, lo } from './shared/lanes';
import { roundHalfUp } from './shared/round';

/**
 * The guide lines' loops (`src/guides.ts`): the silhouette's and strong edges' guide points, and
 * the vector distance transform that gives every cell its nearest one. The grids are the guide
 * grid's Float32Arrays; every value is worked in double precision, in the JavaScript's order, and
 * rounded to single on the store, so both write the same bits. Math.hypot, cos and sin are V8's
 * own algorithms (below): the runtime's differ from them in the last bit.
 */

/** Stands for "no guide point" (`FAR`). */
const FAR: f64 = 1e6;
const EDGE_THRESHOLD: f64 = 60;

/** Math.hypot of two numbers as V8 computes it: scaled by the larger, Kahan-summed. */
export function guideHypot(a: f64, b: f64): f64 {
  const x = Math.abs(a);
  const y = Math.abs(b);
  if (x === Infinity || y === Infinity) return Infinity;
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  let max: f64 = 0;
  if (x > max) max = x;
  if (y > max) max = y;
  if (max === 0) return 0;
  let sum: f64 = 0;
  let compensation: f64 = 0;
  const p = x / max;
  let summand = p * p - compensation;
  let preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  const q = y / max;
  summand = q * q - compensation;
  preliminary = sum + summand;
  sum = preliminary;
  return Math.sqrt(sum) * max;
}

function highWord(x: f64): i32 {
  return <i32>(reinterpret<u64>(x) >> 32);
}

/** fdlibm's cosine kernel on [−π/4, π/4], `y` the tail of `x`, as V8 has it. */
function kernelCos(x: f64, y: f64): f64 {
  const ix = highWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && <i32>x === 0) return 1;
  const z = x * x;
  const r =
    z *
    (0.0416666666666666 +
      z *
        (-0.001388888888887411 +
          z *
            (0.00002480158728947673 +
              z * (-2.7557314351390663e-7 + z * (2.087572321298175e-9 + z * -1.1359647557788195e-11)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y));
  const qx = ix > 0x3fe90000 ? 0.28125 : reinterpret<f64>((<u64>(ix - 0x00200000)) << 32);
  const iz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (iz - (z * r - x * y));
}

/** fdlibm's sine kernel on [−π/4, π/4], as V8 has it; `tail` says whether `y` is used. */
function kernelSin(x: f64, y: f64, tail: bool): f64 {
  const ix = highWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && <i32>x === 0) return x;
  const z = x * x;
  const v = z * x;
  const r =
    0.00833333333332249 +
    z *
      (-0.0001984126982985795 +
        z * (0.0000027557313707070068 + z * (-2.5050760253406863e-8 + z * 1.58969099521155e-10)));
  const S1 = -0.16666666666666632;
  if (!tail) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

/** The reduced argument's head and tail (fdlibm's rem_pio2 for |x| < 3π/4), and its quadrant. */
let reducedHead: f64 = 0;
let reducedTail: f64 = 0;

function reduce(x: f64): i32 {
  const hx = highWord(x);
  const ix = hx & 0x7fffffff;
  const pio2_1 = 1.5707963267341256;
  const pio2_1t = 6.077100506506192e-11;
  const pio2_2 = 6.077100506303966e-11;
  const pio2_2t = 2.0222662487959506e-21;
  if (hx > 0) {
    let z = x - pio2_1;
    if (ix !== 0x3ff921fb) {
      reducedHead = z - pio2_1t;
      reducedTail = z - reducedHead - pio2_1t;
    } else {
      z -= pio2_2;
      reducedHead = z - pio2_2t;
      reducedTail = z - reducedHead - pio2_2t;
    }
    return 1;
  }
  let z = x + pio2_1;
  if (ix !== 0x3ff921fb) {
    reducedHead = z + pio2_1t;
    reducedTail = z - reducedHead + pio2_1t;
  } else {
    z += pio2_2;
    reducedHead = z + pio2_2t;
    reducedTail = z - reducedHead + pio2_2t;
  }
  return -1;
}

/** V8's Math.cos for |x| < 3π/4 (the tensor's half angles lie within π/2). */
export function guideCos(x: f64): f64 {
  const ix = highWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0);
  if (ix >= 0x7ff00000) return x - x;
  const n = reduce(x) & 3;
  if (n === 1) return -kernelSin(reducedHead, reducedTail, true);
  return kernelSin(reducedHead, reducedTail, true);
}

/** V8's Math.sin for |x| < 3π/4. */
export function guideSin(x: f64): f64 {
  const ix = highWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, false);
  if (ix >= 0x7ff00000) return x - x;
  const n = reduce(x) & 3;
  if (n === 1) return kernelCos(reducedHead, reducedTail);
  return -kernelCos(reducedHead, reducedTail);
}

/**
 * The guide grids, set by each loop's caller before it runs: nearest point, its distance and
 * the guide's direction there, per cell.
 */
let nearX: usize = 0;
let nearY: usize = 0;
let distance: usize = 0;
let tangentX: usize = 0;
let tangentY: usize = 0;

function useGrids(x: usize, y: usize, d: usize, tx: usize, ty: usize): void {
  nearX = x;
  nearY = y;
  distance = d;
  tangentX = tx;
  tangentY = ty;
}

/** Records guide point (x, y) with direction (tx, ty) in its cell if nearer the centre than the cell's. */
function mark(width: i32, height: i32, x: f64, y: f64, tx: f64, ty: f64): void {
  const fx = Math.floor(x / CELL);
  const fy = Math.floor(y / CELL);
  // A point off the grid (or not a number, which JavaScript's arrays ignore) marks nothing.
  if (!(fx >= 0 && fy >= 0 && fx < <f64>width && fy < <f64>height)) return;
  const gx = <i32>fx;
  const gy = <i32>fy;
  const at = (<usize>(gy * width + gx)) << 2;
  const d = guideHypot(x - centre(gx), y - centre(gy));
  if (d >= <f64>load<f32>(distance + at)) return;
  store<f32>(distance + at, <f32>d);
  store<f32>(nearX + at, <f32>x);
  store<f32>(nearY + at, <f32>y);
  store<f32>(tangentX + at, <f32>tx);
  store<f32>(tangentY + at, <f32>ty);
}

/** Where the person share crosses one half between cell (x, y) and its neighbour across (`axis` 0) or down (1). */
function crossing(mask: usize, width: i32, height: i32, x: i32, y: i32, axis: i32, m: f64): void {
  const j = axis === 0 ? y * width + x + 1 : (y + 1) * width + x;
  const o = <f64>load<f32>(mask + ((<usize>j) << 2)) - 0.5;
  if (m < 0 === o < 0) return;
  const t = m / (m - o);
  const px = centre(x) + (axis === 0 ? t * CELL : 0);
  const py = centre(y) + (axis === 1 ? t * CELL : 0);
  const right = <f64>load<f32>(mask + ((<usize>(min(width - 1, x + 1) + y * width)) << 2));
  const left = <f64>load<f32>(mask + ((<usize>(max(0, x - 1) + y * width)) << 2));
  const below = <f64>load<f32>(mask + ((<usize>(x + min(height - 1, y + 1) * width)) << 2));
  const above = <f64>load<f32>(mask + ((<usize>(x + max(0, y - 1) * width)) << 2));
  const gx = right - left;
  const gy = below - above;
  let norm = guideHypot(gx, gy);
  if (norm === 0 || Number.isNaN(norm)) norm = 1;
  mark(width, height, px, py, -gy / norm, gx / norm);
}

/** `addSilhouette`: where the person share crosses one half between neighbouring cells. */
export function silhouetteGuides(
  mask: usize,
  width: i32,
  height: i32,
  x: usize,
  y: usize,
  d: usize,
  tx: usize,
  ty: usize,
): void {
  useGrids(x, y, d, tx, ty);
  const half = f32x4.splat(0.5);
  for (let row = 0; row < height; row++) {
    const base = mask + ((<usize>(row * width)) << 2);
    const below = row + 1 < height;
    let column = 0;
    while (column < width) {
      let end = width;
      if (below && column + 5 <= width) {
        // Most cells lie on one side with both neighbours they are compared with: four at a time.
        const at = base + ((<usize>column) << 2);
        const here = f32x4.ge(v128.load(at), half);
        const right = f32x4.ge(v128.load(at + 4), half);
        const down = f32x4.ge(v128.load(at + ((<usize>width) << 2)), half);
        if (!v128.any_true(v128.or(v128.xor(here, right), v128.xor(here, down)))) {
          column += 4;
          continue;
        }
        end = column + 4;
      }
      for (; column < end; column++) {
        const value = <f64>load<f32>(base + ((<usize>column) << 2));
        const inside = value >= 0.5;
        const rightSame = column + 1 >= width || <f64>load<f32>(base + ((<usize>(column + 1)) << 2)) >= 0.5 === inside;
        const downSame = !below || <f64>load<f32>(base + ((<usize>(column + width)) << 2)) >= 0.5 === inside;
        if (rightSame && downSame) continue;
        const m = value - 0.5;
        if (column + 1 < width) crossing(mask, width, height, column, row, 0, m);
        if (below) crossing(mask, width, height, column, row, 1, m);
      }
    }
  }
}

/** `addEdges`: strong edges' crests inside the person and outside the face's ellipse. */
export function edgeGuides(
  gxs: usize,
  gys: usize,
  magnitude: usize,
  mask: usize,
  width: i32,
  height: i32,
  cx: f64,
  cy: f64,
  rx: f64,
  ry: f64,
  x: usize,
  y: usize,
  d: usize,
  tx: usize,
  ty: usize,
): void {
  useGrids(x, y, d, tx, ty);
  const stride = (<usize>width) << 2;
  const threshold = f32x4.splat(<f32>EDGE_THRESHOLD);
  for (let row = 2; row < height - 2; row++) {
    const py = centre(row);
    for (let column = 2; column < width - 2; column++) {
      const i = row * width + column;
      const at = (<usize>i) << 2;
      // Most cells are weak: four at a time past them (a single's comparison is the double's).
      if (column + 4 <= width - 2 && i32x4.all_true(f32x4.lt(v128.load(magnitude + at), threshold))) {
        column += 3;
        continue;
      }
      const m = <f64>load<f32>(magnitude + at);
      if (m < EDGE_THRESHOLD || <f64>load<f32>(mask + at) < 0.6) continue;
      const px = centre(column);
      const fx = (px - cx) / rx;
      const fy = (py - cy) / ry;
      if (fx * fx + fy * fy < 1) continue;
      const gx = <f64>load<f32>(gxs + at);
      const gy = <f64>load<f32>(gys + at);
      const ox = roundHalfUp(gx / m);
      const oy = roundHalfUp(gy / m);
      const step = <i32>oy * width + <i32>ox;
      const ahead = <f64>load<f32>(magnitude + ((<usize>(i + step)) << 2));
      const behind = <f64>load<f32>(magnitude + ((<usize>(i - step)) << 2));
      if (ahead > m || behind >= m) continue;
      // The tensor's diagonal (jxx, jyy) in the two lanes of one sum, each added in the same order.
      let diagonal = f64x2.splat(0);
      let jxy: f64 = 0;
      for (let dy = -2; dy <= 2; dy++) {
        const line = at + <usize>(dy * <i32>stride);
        for (let dx = -2; dx <= 2; dx++) {
          const j = line + <usize>(dx << 2);
          const u = <f64>load<f32>(gxs + j);
          const v = <f64>load<f32>(gys + j);
          const uv = f64x2.replace_lane(f64x2.splat(u), 1, v);
          diagonal = f64x2.add(diagonal, f64x2.mul(uv, uv));
          jxy += u * v;
        }
      }
      const jxx = f64x2.extract_lane(diagonal, 0);
      const jyy = f64x2.extract_lane(diagonal, 1);
      const angle = 0.5 * Math.atan2(2 * jxy, jxx - jyy);
      const nx = guideCos(angle);
      const ny = guideSin(angle);
      const curve = behind - 2 * m + ahead;
      const shift = curve < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (behind - ahead)) / curve)) : 0;
      mark(width, height, px + shift * CELL * ox, py + shift * CELL * oy, -ny, nx);
    }
  }
}

/** Squared distances from two cell centres (px, py) to two points (qx, qy), all doubles. */
function squared(px: v128, py: v128, qx: v128, qy: v128): v128 {
  const dx = f64x2.sub(px, qx);
  const dy = f64x2.sub(py, qy);
  return f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy));
}

/**
 * Every cell of the row at `base` (a byte offset) looking at the point the cell `offset` bytes
 * away in the next row up or down found, four at a time: these looks depend only on that row,
 * so they may all come before the row's own passes along it.
 */
function lookAcross(base: usize, offset: usize, width: i32, py: f64, origin: usize): void {
  const y = f64x2.splat(py);
  let column = 0;
  let pxLow = f64x2(2, 6);
  let pxHigh = f64x2(10, 14);
  const step = f64x2.splat(16);
  for (; column + 4 <= width; column += 4) {
    const i = base + ((<usize>column) << 2);
    const j = i + offset;
    const qx = v128.load(nearX + j);
    const qy = v128.load(nearY + j);
    const held = v128.load(distance + i);
    const dLow = squared(pxLow, y, lo(qx), lo(qy));
    const dHigh = squared(pxHigh, y, hi(qx), hi(qy));
    const takeLow = f64x2.lt(dLow, lo(held));
    const takeHigh = f64x2.lt(dHigh, hi(held));
    const take = i32x4.shuffle(takeLow, takeHigh, 0, 2, 4, 6);
    const d = i64x2.shuffle(f32x4.demote_f64x2_zero(dLow), f32x4.demote_f64x2_zero(dHigh), 0, 2);
    v128.store(distance + i, v128.bitselect(d, held, take));
    v128.store(nearX + i, v128.bitselect(qx, v128.load(nearX + i), take));
    v128.store(nearY + i, v128.bitselect(qy, v128.load(nearY + i), take));
    v128.store(origin + i, v128.bitselect(v128.load(origin + j), v128.load(origin + i), take));
    pxLow = f64x2.add(pxLow, step);
    pxHigh = f64x2.add(pxHigh, step);
  }
  for (; column < width; column++) {
    const i = base + ((<usize>column) << 2);
    const j = i + offset;
    const qx = load<f32>(nearX + j);
    const qy = load<f32>(nearY + j);
    const dx = centre(column) - <f64>qx;
    const dy = py - <f64>qy;
    const d = dx * dx + dy * dy;
    if (d < <f64>load<f32>(distance + i)) {
      store<f32>(distance + i, <f32>d);
      store<f32>(nearX + i, qx);
      store<f32>(nearY + i, qy);
      store<i32>(origin + i, load<i32>(origin + j));
    }
  }
}

/**
 * The cells of the row at `base` from column `from` to `to` (inclusive) in turn, each looking at
 * the point the cell before it (one `step` back) holds by then. A branch rather than a selection:
 * the selection chains every cell's arithmetic to the one before it, the branch only where the
 * point changes.
 */
function lookAlong(base: usize, from: i32, to: i32, step: i32, py: f64, origin: usize): void {
  if (step > 0 ? from > to : from < to) return;
  // The point the cell before holds, carried along rather than read back.
  const before = base + ((<usize>(from - step)) << 2);
  let qx = load<f32>(nearX + before);
  let qy = load<f32>(nearY + before);
  let qo = load<i32>(origin + before);
  for (let column = from; ; column += step) {
    const i = base + ((<usize>column) << 2);
    const dx = centre(column) - <f64>qx;
    const dy = py - <f64>qy;
    const d = dx * dx + dy * dy;
    if (d < <f64>load<f32>(distance + i)) {
      store<f32>(distance + i, <f32>d);
      store<f32>(nearX + i, qx);
      store<f32>(nearY + i, qy);
      store<i32>(origin + i, qo);
    } else {
      qx = load<f32>(nearX + i);
      qy = load<f32>(nearY + i);
      qo = load<i32>(origin + i);
    }
    if (column === to) break;
  }
}

/**
 * `propagate`: the nearest guide point for every cell, by a forward and a backward raster pass
 * of four neighbours (4SSED), squared distances until the end; then each cell's distance and
 * the direction of the guide where its point was marked. `marked` is room for the directions
 * as marked (two grids, x then y).
 */
export function propagateGuides(
  width: i32,
  height: i32,
  x: usize,
  y: usize,
  d: usize,
  tx: usize,
  ty: usize,
  origin: usize,
  markedX: usize,
  markedY: usize,
): void {
  useGrids(x, y, d, tx, ty);
  const n = width * height;
  const bytes = (<usize>n) << 2;
  memory.copy(markedX, tangentX, bytes);
  memory.copy(markedY, tangentY, bytes);
  // Cells without a guide point look at one far away instead of checking for none. A single's
  // square rounded once is the square of it as a double rounded to single.
  const far = f32x4.splat(<f32>FAR);
  const farSquared = f32x4.splat(<f32>(FAR * FAR));
  const none = i32x4.splat(-1);
  let index = i32x4(0, 1, 2, 3);
  const four = i32x4.splat(4);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const at = (<usize>i) << 2;
    const x = v128.load(nearX + at);
    const missing = f32x4.ne(x, x);
    const d = v128.load(distance + at);
    v128.store(nearX + at, v128.bitselect(far, x, missing));
    v128.store(nearY + at, v128.bitselect(far, v128.load(nearY + at), missing));
    v128.store(distance + at, v128.bitselect(farSquared, f32x4.mul(d, d), missing));
    v128.store(origin + at, v128.bitselect(none, index, missing));
    index = i32x4.add(index, four);
  }
  for (; i < n; i++) {
    const at = (<usize>i) << 2;
    if (Number.isNaN(load<f32>(nearX + at))) {
      store<f32>(nearX + at, <f32>FAR);
      store<f32>(nearY + at, <f32>FAR);
      store<f32>(distance + at, <f32>(FAR * FAR));
      store<i32>(origin + at, -1);
    } else {
      const v = <f64>load<f32>(distance + at);
      store<f32>(distance + at, <f32>(v * v));
      store<i32>(origin + at, i);
    }
  }
  const stride = (<usize>width) << 2;
  // Down the rows looking up and left, then right to left; up the rows looking down and right,
  // then left to right.
  for (let row = 0; row < height; row++) {
    const py = centre(row);
    const base = (<usize>(row * width)) << 2;
    if (row > 0) lookAcross(base, -stride, width, py, origin);
    lookAlong(base, 1, width - 1, 1, py, origin);
    lookAlong(base, width - 2, 0, -1, py, origin);
  }
  for (let row = height - 1; row >= 0; row--) {
    const py = centre(row);
    const base = (<usize>(row * width)) << 2;
    if (row + 1 < height) lookAcross(base, stride, width, py, origin);
    lookAlong(base, width - 2, 0, -1, py, origin);
    lookAlong(base, 1, width - 1, 1, py, origin);
  }
  // A double's square root rounded to single is the single's square root (53 ≥ 2·24 + 2 bits).
  i = 0;
  for (; i + 4 <= n; i += 4) {
    const at = (<usize>i) << 2;
    v128.store(distance + at, f32x4.sqrt(v128.load(distance + at)));
  }
  for (; i < n; i++) {
    const at = (<usize>i) << 2;
    store<f32>(distance + at, <f32>Math.sqrt(<f64>load<f32>(distance + at)));
  }
  for (i = 0; i < n; i++) {
    const at = (<usize>i) << 2;
    const o = load<i32>(origin + at);
    const from = (<usize>o) << 2;
    store<f32>(tangentX + at, o < 0 ? 0 : load<f32>(markedX + from));
    store<f32>(tangentY + at, o < 0 ? 0 : load<f32>(markedY + from));
  }
}
