import { i32At as at } from './shared/arrays';

/**
 * The joint redraw at full resolution (`src/refine.ts`): each 2×2 block of artwork pixels takes its
 * half-resolution label where the four labels beside, above and below agree, else each pixel
 * weighs its block's tile against the neighbours on its side. Distances are computed in double
 * precision in the JavaScript's order, so both choose the same tile on every tie.
 *
 * The blocks on a joint are few and scattered, and which they are follows no pattern a branch
 * predictor could learn: a first pass labels every block as its own tile four blocks at a time and
 * lists the blocks on joints, a second redraws those, weighing every candidate for all four pixels
 * without branching (a candidate equal to an earlier one ties with it and so never wins).
 */

/** Bytes per tile in the packed centres: x, y, person share, row cos and sin / size, as doubles. */
const CENTRE_SHIFT: usize = 6;

/**
 * Writes the labels of the artwork blocks of the half-resolution `[x0, x1) × [y0, y1)` into
 * `labels` (u16, `width` per row); the pixels outside are left as they were. `joints` has room for
 * one i32 per block.
 */
export function refineLabels(
  halfLabels: usize,
  mask: usize,
  centres: usize,
  halfWidth: i32,
  x0: i32,
  y0: i32,
  x1: i32,
  y1: i32,
  labels: usize,
  width: i32,
  corner: f64,
  maskWeight: f64,
  joints: usize,
): void {
  // With an odd width a row's last block reaches into the next row's first pixel, so the blocks
  // must be written in order.
  if (width & 1) {
    refineInOrder(halfLabels, mask, centres, halfWidth, x0, y0, x1, y1, labels, width, corner, maskWeight);
    return;
  }
  const rowBytes = (<usize>width) << 1;
  let count = 0;
  for (let hy = y0; hy < y1; hy++) {
    const row = halfLabels + ((<usize>(hy * halfWidth)) << 2);
    const up = halfLabels + ((<usize>(max(y0, hy - 1) * halfWidth)) << 2);
    const down = halfLabels + ((<usize>(min(y1 - 1, hy + 1) * halfWidth)) << 2);
    const top = labels + ((<usize>(hy * 2 * width)) << 1);
    const bottom = top + rowBytes;
    let hx = x0;
    if (hx < x1) count = listBlock(row, up, down, top, bottom, hx, hy, x0, x1, joints, count);
    hx++;
    // Four blocks whose neighbours beside lie inside the row at a time.
    for (; hx + 5 <= x1; hx += 4) {
      const at = (<usize>hx) << 2;
      const t = v128.load(row + at);
      const same = v128.and(
        v128.and(i32x4.eq(t, v128.load(up + at)), i32x4.eq(t, v128.load(down + at))),
        v128.and(i32x4.eq(t, v128.load(row + at - 4)), i32x4.eq(t, v128.load(row + at + 4))),
      );
      // Each label twice, as u16: the blocks' top and bottom rows.
      const pairs = i8x16.shuffle(t, t, 0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13);
      v128.store(top + at, pairs);
      v128.store(bottom + at, pairs);
      const agreeing = i32x4.bitmask(same);
      const code = (hy << 16) | hx;
      for (let k = 0; k < 4; k++) {
        store<i32>(joints + ((<usize>count) << 2), code + k);
        count += ((agreeing >> k) & 1) ^ 1;
      }
    }
    for (; hx < x1; hx++) count = listBlock(row, up, down, top, bottom, hx, hy, x0, x1, joints, count);
  }
  const px = f64x2(-0.25, 0.25);
  for (let k = 0; k < count; k++) {
    const code = load<i32>(joints + ((<usize>k) << 2));
    redrawBlock(halfLabels, mask, centres, halfWidth, x0, y0, x1, y1, labels, width, corner, maskWeight, code, px);
  }
}

/** Labels one block as its own tile and lists it when a neighbour differs; returns the list's length. */
function listBlock(
  row: usize,
  up: usize,
  down: usize,
  top: usize,
  bottom: usize,
  hx: i32,
  hy: i32,
  x0: i32,
  x1: i32,
  joints: usize,
  count: i32,
): i32 {
  const at = (<usize>hx) << 2;
  const t = load<i32>(row + at);
  const n3 = load<i32>(row + (hx > x0 ? at - 4 : at));
  const n5 = load<i32>(row + (hx + 1 < x1 ? at + 4 : at));
  const pair = (t & 0xffff) | (t << 16);
  store<u32>(top + at, pair);
  store<u32>(bottom + at, pair);
  store<i32>(joints + ((<usize>count) << 2), (hy << 16) | hx);
  const agreeing = load<i32>(up + at) === t && load<i32>(down + at) === t && n3 === t && n5 === t;
  return count + (agreeing ? 0 : 1);
}

/** Redraws a listed block (`code`: its row above 16 bits, its column below), both pixel rows at once. */
function redrawBlock(
  halfLabels: usize,
  mask: usize,
  centres: usize,
  halfWidth: i32,
  x0: i32,
  y0: i32,
  x1: i32,
  y1: i32,
  labels: usize,
  width: i32,
  corner: f64,
  maskWeight: f64,
  code: i32,
  offsets: v128,
): void {
  const hx = code & 0xffff;
  const hy = code >>> 16;
  const here = hy * halfWidth + hx;
  const t = at(halfLabels, here);
  const n3 = at(halfLabels, hx > x0 ? here - 1 : here);
  const n5 = at(halfLabels, hx + 1 < x1 ? here + 1 : here);
  const n1 = at(halfLabels, max(y0, hy - 1) * halfWidth + hx);
  const n7 = at(halfLabels, min(y1 - 1, hy + 1) * halfWidth + hx);
  const m = f64x2.splat(<f64>load<f32>(mask + ((<usize>here) << 2)));
  // The block's left and right pixels, then its top and bottom rows.
  const px = f64x2.add(f64x2.splat(<f64>hx), offsets);
  const pyTop = f64x2.splat(<f64>hy + -0.25);
  const pyBottom = f64x2.splat(<f64>hy + 0.25);
  const cornerV = f64x2.splat(corner);
  const weightV = f64x2.splat(maskWeight);
  // The block's tile in both lanes, the tiles beside (left, right) and those above and below.
  const kt = centre(centres, t);
  const k3 = centre(centres, n3);
  const k5 = centre(centres, n5);
  const k1 = centre(centres, n1);
  const k7 = centre(centres, n7);
  const tx = v128.load64_splat(kt);
  const ty = v128.load64_splat(kt, 8);
  const tm = v128.load64_splat(kt, 16);
  const tc = v128.load64_splat(kt, 24);
  const ts = v128.load64_splat(kt, 32);
  const hxs = v128.load64_lane(k5, v128.load64_splat(k3), 1);
  const hys = v128.load64_lane(k5, v128.load64_splat(k3, 8), 1, 8);
  const hms = v128.load64_lane(k5, v128.load64_splat(k3, 16), 1, 16);
  const hcs = v128.load64_lane(k5, v128.load64_splat(k3, 24), 1, 24);
  const hss = v128.load64_lane(k5, v128.load64_splat(k3, 32), 1, 32);
  const tl = i64x2.splat(<i64>t);
  const hl = i64x2.replace_lane(i64x2.splat(<i64>n3), 1, <i64>n5);
  const topRow = chosen(
    misfit(px, pyTop, m, tx, ty, tm, tc, ts, cornerV, weightV),
    misfit(px, pyTop, m, hxs, hys, hms, hcs, hss, cornerV, weightV),
    misfit(
      px,
      pyTop,
      m,
      v128.load64_splat(k1),
      v128.load64_splat(k1, 8),
      v128.load64_splat(k1, 16),
      v128.load64_splat(k1, 24),
      v128.load64_splat(k1, 32),
      cornerV,
      weightV,
    ),
    tl,
    hl,
    i64x2.splat(<i64>n1),
  );
  const bottomRow = chosen(
    misfit(px, pyBottom, m, tx, ty, tm, tc, ts, cornerV, weightV),
    misfit(px, pyBottom, m, hxs, hys, hms, hcs, hss, cornerV, weightV),
    misfit(
      px,
      pyBottom,
      m,
      v128.load64_splat(k7),
      v128.load64_splat(k7, 8),
      v128.load64_splat(k7, 16),
      v128.load64_splat(k7, 24),
      v128.load64_splat(k7, 32),
      cornerV,
      weightV,
    ),
    tl,
    hl,
    i64x2.splat(<i64>n7),
  );
  const top = labels + ((<usize>(hy * 2 * width + hx * 2)) << 1);
  store<u32>(top, topRow);
  store<u32>(top + ((<usize>width) << 1), bottomRow);
}

/**
 * Two pixels' tiles as u16 pairs: the block's own (`t`) unless the one beside (`h`) lies strictly
 * nearer, then the one above or below (`v`) if strictly nearer than both.
 */
function chosen(dt: v128, dh: v128, dv: v128, t: v128, h: v128, v: v128): u32 {
  const nearerBeside = f64x2.lt(dh, dt);
  const nearest = v128.bitselect(dh, dt, nearerBeside);
  const best = v128.bitselect(v, v128.bitselect(h, t, nearerBeside), f64x2.lt(dv, nearest));
  return (<u32>i32x4.extract_lane(best, 0) & 0xffff) | ((<u32>i32x4.extract_lane(best, 2)) << 16);
}

/**
 * `misfitOne` below for two pixels at once: wasm's pmin and pmax are the comparisons written out
 * (`u > w ? w : u`), and pmax(near − 0.5, 0) adds the same +0 the comparison would, as near − 0.5
 * is never −0.
 */
function misfit(
  px: v128,
  py: v128,
  m: v128,
  cx: v128,
  cy: v128,
  cm: v128,
  cos: v128,
  sin: v128,
  corner: v128,
  maskWeight: v128,
): v128 {
  const dx = f64x2.sub(px, cx);
  const dy = f64x2.sub(py, cy);
  const dm = f64x2.sub(m, cm);
  const u = f64x2.abs(f64x2.add(f64x2.mul(dx, cos), f64x2.mul(dy, sin)));
  const w = f64x2.abs(f64x2.sub(f64x2.mul(dy, cos), f64x2.mul(dx, sin)));
  const near = f64x2.pmin(u, w);
  const beyond = f64x2.pmax(f64x2.sub(near, f64x2.splat(0.5)), f64x2.splat(0));
  const e = f64x2.add(f64x2.pmax(w, u), f64x2.mul(corner, beyond));
  return f64x2.add(f64x2.mul(e, e), f64x2.mul(f64x2.mul(maskWeight, dm), dm));
}

/** The blocks in raster order, each choosing as the JavaScript does. */
function refineInOrder(
  halfLabels: usize,
  mask: usize,
  centres: usize,
  halfWidth: i32,
  x0: i32,
  y0: i32,
  x1: i32,
  y1: i32,
  labels: usize,
  width: i32,
  corner: f64,
  maskWeight: f64,
): void {
  const rowBytes = (<usize>width) << 1;
  for (let hy = y0; hy < y1; hy++) {
    const row = halfLabels + ((<usize>(hy * halfWidth)) << 2);
    const up = halfLabels + ((<usize>(max(y0, hy - 1) * halfWidth)) << 2);
    const down = halfLabels + ((<usize>(min(y1 - 1, hy + 1) * halfWidth)) << 2);
    const maskRow = mask + ((<usize>(hy * halfWidth)) << 2);
    const py = <f64>hy;
    for (let hx = x0; hx < x1; hx++) {
      const at = (<usize>hx) << 2;
      const t = load<i32>(row + at);
      const n3 = load<i32>(row + (hx > x0 ? at - 4 : at));
      const n5 = load<i32>(row + (hx + 1 < x1 ? at + 4 : at));
      const n1 = load<i32>(up + at);
      const n7 = load<i32>(down + at);
      const top = labels + ((<usize>(hy * 2 * width + hx * 2)) << 1);
      const bottom = top + rowBytes;
      if (n1 === t && n7 === t && n3 === t && n5 === t) {
        const pair = (t & 0xffff) | (t << 16);
        store<u32>(top, pair);
        store<u32>(bottom, pair);
        continue;
      }
      const m = <f64>load<f32>(maskRow + at);
      const px = <f64>hx;
      store<u16>(top, chosenOne(centres, t, n3, n1, px + -0.25, py + -0.25, m, corner, maskWeight));
      store<u16>(top + 2, chosenOne(centres, t, n5, n1, px + 0.25, py + -0.25, m, corner, maskWeight));
      store<u16>(bottom, chosenOne(centres, t, n3, n7, px + -0.25, py + 0.25, m, corner, maskWeight));
      store<u16>(bottom + 2, chosenOne(centres, t, n5, n7, px + 0.25, py + 0.25, m, corner, maskWeight));
    }
  }
}

/**
 * The tile for the pixel at (px, py) among its block's tile `t`, the neighbour `h` beside and `v`
 * above or below it: the earlier candidate wins a tie, each is weighed once.
 */
function chosenOne(
  centres: usize,
  t: i32,
  h: i32,
  v: i32,
  px: f64,
  py: f64,
  m: f64,
  corner: f64,
  maskWeight: f64,
): i32 {
  if (h === t && v === t) return t;
  let best = t;
  let bestDistance = misfitOne(centres, t, px, py, m, corner, maskWeight);
  if (h !== t) {
    const distance = misfitOne(centres, h, px, py, m, corner, maskWeight);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = h;
    }
  }
  if (v !== t && v !== h && misfitOne(centres, v, px, py, m, corner, maskWeight) < bestDistance) best = v;
  return best;
}

/** How far (px, py) with person share m lies from tile t: its rectangle metric and the mask term. */
function misfitOne(centres: usize, t: i32, px: f64, py: f64, m: f64, corner: f64, maskWeight: f64): f64 {
  const k = centre(centres, t);
  const dx = px - load<f64>(k);
  const dy = py - load<f64>(k, 8);
  const dm = m - load<f64>(k, 16);
  const cos = load<f64>(k, 24);
  const sin = load<f64>(k, 32);
  const u = Math.abs(dx * cos + dy * sin);
  const w = Math.abs(dy * cos - dx * sin);
  const near = u > w ? w : u;
  const e = (u > w ? u : w) + (near > 0.5 ? corner * (near - 0.5) : 0);
  return e * e + maskWeight * dm * dm;
}

function centre(centres: usize, t: i32): usize {
  return centres + ((<usize>t) << CENTRE_SHIFT);
}

/**
 * Packs `count` tiles' centres for `refineLabels`, one cache line each: x, y, person share and the
 * row's cos and sin / size, those two rounded to single precision as the tessellation weighs them.
 */
export function packRefineCentres(
  count: i32,
  xs: usize,
  ys: usize,
  shares: usize,
  cosines: usize,
  sines: usize,
  inverseSizes: usize,
  packed: usize,
): void {
  for (let t = 0; t < count; t++) {
    const field = (<usize>t) << 2;
    const k = centre(packed, t);
    const inverse = <f64>load<f32>(inverseSizes + field);
    store<f64>(k, <f64>load<f32>(xs + field));
    store<f64>(k, <f64>load<f32>(ys + field), 8);
    store<f64>(k, <f64>load<f32>(shares + field), 16);
    store<f64>(k, <f64>(<f32>(<f64>load<f32>(cosines + field) * inverse)), 24);
    store<f64>(k, <f64>(<f32>(<f64>load<f32>(sines + field) * inverse)), 32);
  }
}
