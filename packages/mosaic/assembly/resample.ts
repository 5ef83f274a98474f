/**
 * Bilinear resampling of the selfie model's mask (`src/resample.ts`). Double precision in the
 * reference's order, so both write the same bits; two output pixels at a time, one in each lane.
 */

/**
 * The 8-bit map `mask` (`mw`×`mh`) resampled bilinearly to `width`×`height` floats 0–1 in `out`.
 * `columns` holds `width` × 16 bytes: each output column's left and right source columns and its
 * weight, worked out once as every row samples the same columns.
 */
export function upsampleMaskLoop(
  mask: usize,
  mw: i32,
  mh: i32,
  width: i32,
  height: i32,
  out: usize,
  columns: usize,
): void {
  const sx = <f64>mw / <f64>width;
  const sy = <f64>mh / <f64>height;
  const lastX = <f64>(mw - 1);
  const lastY = <f64>(mh - 1);
  // Left and right columns as pairs of i32 (8 bytes per column), then the weights as doubles.
  const sides = columns;
  const along = columns + ((<usize>width) << 3);
  for (let x = 0; x < width; x++) {
    const fx = clampTo((<f64>x + 0.5) * sx - 0.5, lastX);
    const x0 = <i32>fx;
    store<i32>(sides + ((<usize>x) << 3), x0);
    store<i32>(sides + ((<usize>x) << 3), min(mw - 1, x0 + 1), 4);
    store<f64>(along + ((<usize>x) << 3), fx - <f64>x0);
  }
  const one = f64x2.splat(1);
  const scale = f64x2.splat(255);
  let o = out;
  for (let y = 0; y < height; y++) {
    const fy = clampTo((<f64>y + 0.5) * sy - 0.5, lastY);
    const y0 = <i32>fy;
    const top = mask + <usize>(y0 * mw);
    const bottom = mask + <usize>(min(mh - 1, y0 + 1) * mw);
    const down = fy - <f64>y0;
    const ay = f64x2.splat(down);
    const below = f64x2.sub(one, ay);
    let x = 0;
    for (; x + 2 <= width; x += 2, o += 8) {
      const side = sides + ((<usize>x) << 3);
      const l0 = <usize>load<i32>(side);
      const r0 = <usize>load<i32>(side, 4);
      const l1 = <usize>load<i32>(side, 8);
      const r1 = <usize>load<i32>(side, 12);
      const ax = v128.load(along + ((<usize>x) << 3));
      const bx = f64x2.sub(one, ax);
      const upper = f64x2.add(f64x2.mul(bytes(top + l0, top + l1), bx), f64x2.mul(bytes(top + r0, top + r1), ax));
      const lower = f64x2.add(
        f64x2.mul(bytes(bottom + l0, bottom + l1), bx),
        f64x2.mul(bytes(bottom + r0, bottom + r1), ax),
      );
      const value = f64x2.div(f64x2.add(f64x2.mul(upper, below), f64x2.mul(lower, ay)), scale);
      v128.store64_lane(o, f32x4.demote_f64x2_zero(value), 0);
    }
    for (; x < width; x++, o += 4) {
      const side = sides + ((<usize>x) << 3);
      const x0 = <usize>load<i32>(side);
      const x1 = <usize>load<i32>(side, 4);
      const ax = load<f64>(along + ((<usize>x) << 3));
      const upper = <f64>load<u8>(top + x0) * (1 - ax) + <f64>load<u8>(top + x1) * ax;
      const lower = <f64>load<u8>(bottom + x0) * (1 - ax) + <f64>load<u8>(bottom + x1) * ax;
      store<f32>(o, <f32>((upper * (1 - down) + lower * down) / 255));
    }
  }
}

/** The bytes at `a` and `b` as two doubles. */
function bytes(a: usize, b: usize): v128 {
  return f64x2.convert_low_i32x4_u(i32x4.replace_lane(i32x4.splat(load<u8>(a)), 1, load<u8>(b)));
}

/** `v` clamped to 0–`last` (never NaN or −0 here, so the comparisons agree with Math.min and Math.max). */
function clampTo(v: f64, last: f64): f64 {
  const low = v > 0 ? v : 0;
  return low < last ? low : last;
}
