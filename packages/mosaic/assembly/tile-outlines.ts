import { NO_TILE } from './shared/labels';
import { roundHalfUp } from './shared/round';

/**
 * The tiles' outlines (`src/tile-outlines.ts`): the extents of each tile's pixel runs along four
 * directions, then an octagon per tile rounded to byte offsets. Every value is a double computed
 * in the order the JavaScript reference computes it, so both write the same bits.
 */

/**
 * Doubles per tile in the frame array: the four directions' x, then their y, then |y|, each as two
 * pairs (directions 0 and 1, then 2 and 3), so one run updates a tile with four pair operations.
 */
const FRAME_STRIDE: i32 = 12;
/** Doubles per tile in the extents array: the four low extents, then the four high ones. */
const EXTENTS_STRIDE: i32 = 8;

/** The first column from `x` on, before `right`, whose 16-bit label is not `label`: eight compared at a time. */
function endOfLabelRun(row: usize, x: i32, right: i32, label: i32): i32 {
  const wanted = i16x8.splat(<i16>label);
  let end = x;
  for (; end + 8 <= right; end += 8) {
    const other = i16x8.bitmask(v128.not(i16x8.eq(v128.load(row + ((<usize>end) << 1)), wanted)));
    if (other !== 0) return end + ctz(other);
  }
  while (end < right && <i32>load<u16>(row + ((<usize>end) << 1)) === label) end++;
  return end;
}

/** `v < 0 ? -v : v` as JavaScript has it: a negative zero stays negative. */
function magnitude(v: f64): f64 {
  return v < 0 ? -v : v;
}

/**
 * Fills each wanted tile's directions and empties its extents, scans the window's runs (marking
 * every tile seen in `present`) and writes the outlines: centres into `cx`/`cy`, corners into
 * `corners` from `cornerStart`. Returns how many corners were written.
 */
export function outlineTiles(
  labels: usize,
  width: i32,
  left: i32,
  top: i32,
  right: i32,
  bottom: i32,
  step: i32,
  count: i32,
  cos: usize,
  sin: usize,
  wanted: usize,
  present: usize,
  frame: usize,
  extents: usize,
  polygon: usize,
  cx: usize,
  cy: usize,
  cornerStart: usize,
  corners: usize,
): i32 {
  memory.fill(present, 0, <usize>count);
  memory.fill(cx, 0, (<usize>count) << 1);
  memory.fill(cy, 0, (<usize>count) << 1);
  prepare(count, cos, sin, frame, extents);
  scan(labels, width, left, top, right, bottom, step, count, wanted, present, frame, extents);
  return outline(count, wanted, frame, extents, polygon, cx, cy, cornerStart, corners);
}

function prepare(count: i32, cos: usize, sin: usize, frame: usize, extents: usize): void {
  const far = f64x2.splat(Infinity);
  const near = f64x2.splat(-Infinity);
  for (let t = 0; t < count; t++) {
    const c = <f64>load<f32>(cos + ((<usize>t) << 2));
    const s = <f64>load<f32>(sin + ((<usize>t) << 2));
    // Along, across, and the two diagonals between them, as (x, y).
    const x2 = (c - s) * Math.SQRT1_2;
    const y2 = (s + c) * Math.SQRT1_2;
    const x3 = (c + s) * Math.SQRT1_2;
    const y3 = (s - c) * Math.SQRT1_2;
    const f = frame + ((<usize>(t * FRAME_STRIDE)) << 3);
    store<f64>(f, c);
    store<f64>(f, -s, 8);
    store<f64>(f, x2, 16);
    store<f64>(f, x3, 24);
    store<f64>(f, s, 32);
    store<f64>(f, c, 40);
    store<f64>(f, y2, 48);
    store<f64>(f, y3, 56);
    store<f64>(f, magnitude(s), 64);
    store<f64>(f, magnitude(c), 72);
    store<f64>(f, magnitude(y2), 80);
    store<f64>(f, magnitude(y3), 88);
    const e = extents + ((<usize>(t * EXTENTS_STRIDE)) << 3);
    v128.store(e, far);
    v128.store(e, far, 16);
    v128.store(e, near, 32);
    v128.store(e, near, 48);
  }
}

function scan(
  labels: usize,
  width: i32,
  left: i32,
  top: i32,
  right: i32,
  bottom: i32,
  step: i32,
  count: i32,
  wanted: usize,
  present: usize,
  frame: usize,
  extents: usize,
): void {
  for (let y = top; y < bottom; y += step) {
    const row = labels + ((<usize>(y * width)) << 1);
    // The run stands for the rows from y to y + step (its middle line ± half that).
    const middle = <f64>(min(y + step, bottom) - y);
    const yc = f64x2.splat(<f64>y + middle / 2);
    const half = f64x2.splat(middle / 2);
    for (let x = left; x < right; ) {
      const t = <i32>load<u16>(row + ((<usize>x) << 1));
      const start = f64x2.splat(<f64>x);
      x = endOfLabelRun(row, x + 1, right, t);
      if (t === NO_TILE || t >= count) continue;
      store<u8>(present + <usize>t, 1);
      if (load<u8>(wanted + <usize>t) === 0) continue;
      const end = f64x2.splat(<f64>x);
      const f = frame + ((<usize>(t * FRAME_STRIDE)) << 3);
      const e = extents + ((<usize>(t * EXTENTS_STRIDE)) << 3);
      extend(v128.load(f), v128.load(f, 32), v128.load(f, 64), start, end, yc, half, e);
      extend(v128.load(f, 16), v128.load(f, 48), v128.load(f, 80), start, end, yc, half, e + 16);
    }
  }
}

/** Widens two directions' extents (lows at `e`, highs 32 bytes on) by one run. */
function extend(ax: v128, ay: v128, spanY: v128, start: v128, end: v128, yc: v128, half: v128, e: usize): void {
  const across = f64x2.mul(ay, yc);
  const spread = f64x2.mul(spanY, half);
  const p = f64x2.mul(ax, start);
  const q = f64x2.mul(ax, end);
  // pmin(q, p) is `p < q ? p : q` and pmax(p, q) is `p < q ? q : p`, zeros' signs included.
  const lo = f64x2.sub(f64x2.add(f64x2.pmin(q, p), across), spread);
  const hi = f64x2.add(f64x2.add(f64x2.pmax(p, q), across), spread);
  v128.store(e, f64x2.pmin(v128.load(e), lo));
  v128.store(e, f64x2.pmax(v128.load(e, 32), hi), 32);
}

function clampByte(v: f64): i32 {
  return v < -128 ? -128 : v > 127 ? 127 : <i32>v;
}

function outline(
  count: i32,
  wanted: usize,
  frame: usize,
  extents: usize,
  polygon: usize,
  cx: usize,
  cy: usize,
  cornerStart: usize,
  corners: usize,
): i32 {
  let used = 0;
  for (let t = 0; t < count; t++) {
    store<u32>(cornerStart + ((<usize>t) << 2), used);
    const e = extents + ((<usize>(t * EXTENTS_STRIDE)) << 3);
    // A tile no run reached still has its low extent at +∞, where the scan started it.
    if (load<u8>(wanted + <usize>t) === 0 || load<f64>(e) === Infinity) continue;
    const n = octagon(frame + ((<usize>(t * FRAME_STRIDE)) << 3), e, polygon);
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = load<f64>(polygon + ((<usize>i) << 4));
      const y = load<f64>(polygon + ((<usize>i) << 4), 8);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const ox = roundHalfUp((minX + maxX) / 2);
    const oy = roundHalfUp((minY + maxY) / 2);
    store<i16>(cx + ((<usize>t) << 1), <i16>(<i32>ox));
    store<i16>(cy + ((<usize>t) << 1), <i16>(<i32>oy));
    const first = used;
    for (let i = 0; i < n; i++) {
      const dx = clampByte(roundHalfUp(load<f64>(polygon + ((<usize>i) << 4)) - ox));
      const dy = clampByte(roundHalfUp(load<f64>(polygon + ((<usize>i) << 4), 8) - oy));
      const at = corners + ((<usize>used) << 1);
      // Rounding can make two corners one.
      if (used > first && <i32>load<i8>(at - 2) === dx && <i32>load<i8>(at - 1) === dy) continue;
      store<i8>(at, <i8>dx);
      store<i8>(at, <i8>dy, 1);
      used++;
    }
    const head = corners + ((<usize>first) << 1);
    const last = corners + ((<usize>used) << 1) - 2;
    if (used - first > 1 && load<i8>(head) === load<i8>(last) && load<i8>(head, 1) === load<i8>(last, 1)) used--;
    // A sliver too thin to round to a polygon keeps a pixel-sized one.
    while (used - first < 3) {
      const k = used - first;
      const at = corners + ((<usize>used) << 1);
      store<i8>(at, k === 1 ? 1 : 0);
      store<i8>(at, k === 2 ? 1 : 0, 1);
      used++;
    }
  }
  store<u32>(cornerStart + ((<usize>count) << 2), used);
  return used;
}

/** Appends the corner (u, v) of the tile's frame at pair `n` of `out`; returns the next pair. */
function corner(out: usize, n: i32, u: f64, v: f64): i32 {
  store<f64>(out + ((<usize>n) << 4), u);
  store<f64>(out + ((<usize>n) << 4), v, 8);
  return n + 1;
}

/**
 * The corners of a tile's octagon into `out`, clockwise on screen; returns how many. As in the
 * JavaScript: the rectangle of the extents along and across the row, each corner cut off where
 * the diagonal extent says the tile does not reach into it.
 */
function octagon(f: usize, e: usize, out: usize): i32 {
  const c = load<f64>(f);
  const s = load<f64>(f, 32);
  const uLo = load<f64>(e);
  const vLo = load<f64>(e, 8);
  const uHi = load<f64>(e, 32);
  const vHi = load<f64>(e, 40);
  const pLo = load<f64>(e, 16) * Math.SQRT2;
  const qLo = load<f64>(e, 24) * Math.SQRT2;
  const pHi = load<f64>(e, 48) * Math.SQRT2;
  const qHi = load<f64>(e, 56) * Math.SQRT2;
  let n = 0;
  if (uHi - vLo > qHi) {
    n = corner(out, n, uHi - (uHi - vLo - qHi), vLo);
    n = corner(out, n, uHi, uHi - qHi);
  } else {
    n = corner(out, n, uHi, vLo);
  }
  if (uHi + vHi > pHi) {
    n = corner(out, n, uHi, pHi - uHi);
    n = corner(out, n, pHi - vHi, vHi);
  } else {
    n = corner(out, n, uHi, vHi);
  }
  if (uLo - vHi < qLo) {
    n = corner(out, n, qLo + vHi, vHi);
    n = corner(out, n, uLo, uLo - qLo);
  } else {
    n = corner(out, n, uLo, vHi);
  }
  if (uLo + vLo < pLo) {
    n = corner(out, n, uLo, pLo - uLo);
    n = corner(out, n, pLo - vLo, vLo);
  } else {
    n = corner(out, n, uLo, vLo);
  }
  for (let i = 0; i < n; i++) {
    const at = out + ((<usize>i) << 4);
    const u = load<f64>(at);
    const v = load<f64>(at, 8);
    store<f64>(at, u * c - v * s);
    store<f64>(at, u * s + v * c, 8);
  }
  return n;
}

// Read by `src/tile-outlines.ts`, which lays the frame out for the loop.
export { FRAME_STRIDE as outlineFrameStride };
