import { f32At, setF32 } from './shared/arrays';
import { blurRows } from './shared/box-blur';
import { hi, joined, lo } from './shared/lanes';

/**
 * The detail map's loops (`src/detail.ts`). Double precision in the reference's order, rounded to
 * single only where it stores into a Float32Array, so both write the same bits.
 */

/**
 * Separable box blur of `v` into `out` (floats, `width`×`height`), edges clamped, with running
 * sums: the rows into `rows`, then the columns a whole row at a time with one double-precision
 * running sum per column in `sums` (`width` doubles).
 */
export function detailBlur(v: usize, width: i32, height: i32, radius: i32, rows: usize, sums: usize, out: usize): void {
  const norm: f64 = 1 / <f64>(2 * radius + 1);
  blurRows(v, width, height, radius, norm, rows);
  memory.fill(sums, 0, (<usize>width) << 3);
  for (let k = -radius; k <= radius; k++) {
    const row = rows + ((<usize>(min(height - 1, max(0, k)) * width)) << 2);
    for (let x = 0; x < width; x++) {
      const at = sums + ((<usize>x) << 3);
      store<f64>(at, load<f64>(at) + f32At(row, x));
    }
  }
  const norms = f64x2.splat(norm);
  for (let y = 0; y < height; y++) {
    const to = out + ((<usize>(y * width)) << 2);
    const enter = rows + ((<usize>(min(height - 1, y + radius + 1) * width)) << 2);
    const leave = rows + ((<usize>(max(0, y - radius) * width)) << 2);
    let x = 0;
    for (; x + 4 <= width; x += 4) {
      const at = (<usize>x) << 2;
      const s = sums + ((<usize>x) << 3);
      const sumLow = v128.load(s);
      const sumHigh = v128.load(s, 16);
      const e = v128.load(enter + at);
      const l = v128.load(leave + at);
      v128.store(to + at, joined(f64x2.mul(sumLow, norms), f64x2.mul(sumHigh, norms)));
      v128.store(s, f64x2.add(sumLow, f64x2.sub(lo(e), lo(l))));
      v128.store(s, f64x2.add(sumHigh, f64x2.sub(hi(e), hi(l))), 16);
    }
    for (; x < width; x++) {
      const s = sums + ((<usize>x) << 3);
      const sum = load<f64>(s);
      setF32(to, x, sum * norm);
      store<f64>(s, sum + (f32At(enter, x) - f32At(leave, x)));
    }
  }
}

/** 1 inside the ellipse (centre `cx`, `cy`, radii `rx`, `ry`), fading to 0 at 1.5 radii. */
function weight(cx: f64, cy: f64, rx: f64, ry: f64, x: f64, y: f64): f64 {
  const dx = (x - cx) / rx;
  const dy = (y - cy) / ry;
  if (dx > 1.5 || dx < -1.5 || dy > 1.5 || dy < -1.5) return 0;
  const d = Math.sqrt(dx * dx + dy * dy);
  return d <= 1 ? 1 : d >= 1.5 ? 0 : 1 - (d - 1) * 2;
}

function smooth(t: f64): f64 {
  const c = min<f64>(1, max<f64>(0, (t - 0.25) / 0.5));
  return c * c * (3 - 2 * c);
}

/**
 * Each cell's tile size (`sizes`, floats) from the person mask, the blurred edges and silhouette,
 * and the face's ellipse; the sizes are `TILE_SIZES`' (background, person, face, edge floor, silhouette).
 */
export function detailSizes(
  mask: usize,
  edges: usize,
  silhouette: usize,
  width: i32,
  height: i32,
  cell: f64,
  cx: f64,
  cy: f64,
  rx: f64,
  ry: f64,
  background: f64,
  personSize: f64,
  faceSize: f64,
  edgeFloor: f64,
  silhouetteSize: f64,
  sizes: usize,
): void {
  const cells = f64x2.splat(cell);
  const next = f64x2.replace_lane(f64x2.splat(0.5), 1, 1.5);
  for (let gy = 0; gy < height; gy++) {
    const y = (<f64>gy + 0.5) * cell;
    const ys = f64x2.splat(y);
    let gx = 0;
    // Two cells at a time, one in each lane, every step as the scalar code below takes it.
    for (; gx + 2 <= width; gx += 2) {
      const i = gy * width + gx;
      const at = (<usize>i) << 2;
      const x = f64x2.mul(f64x2.add(f64x2.splat(<f64>gx), next), cells);
      const person = f64x2.promote_low_f32x4(v128.load64_zero(mask + at));
      let size = f64x2.add(
        f64x2.splat(background),
        f64x2.mul(f64x2.splat(personSize - background), smoothPair(person)),
      );
      size = f64x2.add(size, f64x2.mul(f64x2.sub(f64x2.splat(faceSize), size), weightPair(cx, cy, rx, ry, x, ys)));
      const edge = unitPair(
        f64x2.div(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(edges + at)), f64x2.splat(10)), f64x2.splat(50)),
      );
      size = lowest(size, f64x2.add(size, f64x2.mul(f64x2.mul(f64x2.sub(f64x2.splat(edgeFloor), size), edge), person)));
      const rim = lowest(f64x2.mul(f64x2.promote_low_f32x4(v128.load64_zero(silhouette + at)), f64x2.splat(2)), one());
      size = f64x2.add(size, f64x2.mul(f64x2.sub(lowest(size, f64x2.splat(silhouetteSize)), size), rim));
      v128.store64_lane(sizes + at, f32x4.demote_f64x2_zero(size), 0);
    }
    for (; gx < width; gx++) {
      const i = gy * width + gx;
      const x = (<f64>gx + 0.5) * cell;
      const person = f32At(mask, i);
      let size = background + (personSize - background) * smooth(person);
      size += (faceSize - size) * weight(cx, cy, rx, ry, x, y);
      const edge = min<f64>(1, max<f64>(0, (f32At(edges, i) - 10) / 50));
      size = min(size, size + (edgeFloor - size) * edge * person);
      const rim = min<f64>(1, f32At(silhouette, i) * 2);
      size += (min(size, silhouetteSize) - size) * rim;
      setF32(sizes, i, size);
    }
  }
}

function one(): v128 {
  return f64x2.splat(1);
}

/**
 * The smaller of each lane's pair. The lanes are never NaN and never a signed zero against the
 * other zero, so this agrees with Math.min.
 */
function lowest(a: v128, b: v128): v128 {
  return v128.bitselect(a, b, f64x2.lt(a, b));
}

/** Each lane clamped to 0–1, as Math.min(1, Math.max(0, v)) does (v is never NaN or −0). */
function unitPair(v: v128): v128 {
  const low = v128.bitselect(v, f64x2.splat(0), f64x2.gt(v, f64x2.splat(0)));
  return lowest(low, one());
}

function smoothPair(t: v128): v128 {
  const c = unitPair(f64x2.div(f64x2.sub(t, f64x2.splat(0.25)), f64x2.splat(0.5)));
  return f64x2.mul(f64x2.mul(c, c), f64x2.sub(f64x2.splat(3), f64x2.mul(f64x2.splat(2), c)));
}

/** `weight` for two points at once, every branch taken and the lane's own kept. */
function weightPair(cx: f64, cy: f64, rx: f64, ry: f64, x: v128, y: v128): v128 {
  const dx = f64x2.div(f64x2.sub(x, f64x2.splat(cx)), f64x2.splat(rx));
  const dy = f64x2.div(f64x2.sub(y, f64x2.splat(cy)), f64x2.splat(ry));
  const reach = f64x2.splat(1.5);
  const beyond = f64x2.splat(-1.5);
  const outside = v128.or(
    v128.or(f64x2.gt(dx, reach), f64x2.lt(dx, beyond)),
    v128.or(f64x2.gt(dy, reach), f64x2.lt(dy, beyond)),
  );
  const d = f64x2.sqrt(f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy)));
  const fading = f64x2.sub(one(), f64x2.mul(f64x2.sub(d, one()), f64x2.splat(2)));
  const ring = v128.bitselect(f64x2.splat(0), fading, f64x2.ge(d, reach));
  const inner = v128.bitselect(one(), ring, f64x2.le(d, one()));
  return v128.andnot(inner, outside);
}

/** A feature's ellipse lowering the sizes of cells `gx0`–`gx1`, `gy0`–`gy1` towards its own `size`. */
export function detailFeature(
  sizes: usize,
  width: i32,
  gx0: i32,
  gx1: i32,
  gy0: i32,
  gy1: i32,
  cell: f64,
  cx: f64,
  cy: f64,
  rx: f64,
  ry: f64,
  size: f64,
): void {
  for (let gy = gy0; gy <= gy1; gy++) {
    const y = (<f64>gy + 0.5) * cell;
    for (let gx = gx0; gx <= gx1; gx++) {
      const w = weight(cx, cy, rx, ry, (<f64>gx + 0.5) * cell, y);
      if (w === 0) continue;
      const i = gy * width + gx;
      const here = f32At(sizes, i);
      setF32(sizes, i, min(here, here + (size - here) * w));
    }
  }
}
