/**
 * sRGB to CIELAB (D65) for `src/colour.ts`, with its two tables (the sRGB transfer curve and f()
 * sampled on [0, 1.1]) made by the JavaScript and placed in memory: computed in double precision
 * in the JavaScript's order, so both write the same bits.
 */

/**
 * Converts `pixels` interleaved RGB bytes at `rgb` to interleaved CIELAB singles at `lab`, f()
 * interpolated linearly between its `scale`-per-unit samples in `fTable`; `linear` holds the
 * linear value of each 8-bit code.
 */
export function rgbToLab(rgb: usize, pixels: i32, lab: usize, linear: usize, fTable: usize, scale: f64): void {
  const scaleV = f64x2.splat(scale);
  let p = 0;
  // Two pixels at a time: the table look-ups one by one, the arithmetic in both lanes.
  for (; p + 2 <= pixels; p += 2) {
    const source = rgb + <usize>p * 3;
    const lr = pairOf(linear, load<u8>(source), load<u8>(source, 3));
    const lg = pairOf(linear, load<u8>(source, 1), load<u8>(source, 4));
    const lb = pairOf(linear, load<u8>(source, 2), load<u8>(source, 5));
    const px = f64x2.mul(
      f64x2.div(weighted(lr, lg, lb, 0.4124564, 0.3575761, 0.1804375), f64x2.splat(0.95047)),
      scaleV,
    );
    const py = f64x2.mul(weighted(lr, lg, lb, 0.2126729, 0.7151522, 0.072175), scaleV);
    const pz = f64x2.mul(f64x2.div(weighted(lr, lg, lb, 0.0193339, 0.119192, 0.9503041), f64x2.splat(1.08883)), scaleV);
    const fx = interpolatedPair(fTable, px);
    const fy = interpolatedPair(fTable, py);
    const fz = interpolatedPair(fTable, pz);
    const l = f32x4.demote_f64x2_zero(f64x2.sub(f64x2.mul(f64x2.splat(116), fy), f64x2.splat(16)));
    const a = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.splat(500), f64x2.sub(fx, fy)));
    const b = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.splat(200), f64x2.sub(fy, fz)));
    // L a b of the first pixel, then of the second.
    const out = lab + ((<usize>p * 3) << 2);
    v128.store(out, v128.shuffle<f32>(v128.shuffle<f32>(l, a, 0, 4, 1, 5), b, 0, 1, 4, 2));
    v128.store64_lane(out + 16, v128.shuffle<f32>(a, b, 1, 5, 1, 5), 0);
  }
  for (; p < pixels; p++) {
    const source = rgb + <usize>p * 3;
    const lr = <f64>load<f32>(linear + ((<usize>load<u8>(source)) << 2));
    const lg = <f64>load<f32>(linear + ((<usize>load<u8>(source, 1)) << 2));
    const lb = <f64>load<f32>(linear + ((<usize>load<u8>(source, 2)) << 2));
    const px = ((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047) * scale;
    const py = (0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb) * scale;
    const pz = ((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883) * scale;
    const fx = interpolated(fTable, px);
    const fy = interpolated(fTable, py);
    const fz = interpolated(fTable, pz);
    const out = lab + ((<usize>p * 3) << 2);
    store<f32>(out, <f32>(116 * fy - 16));
    store<f32>(out, <f32>(500 * (fx - fy)), 4);
    store<f32>(out, <f32>(200 * (fy - fz)), 8);
  }
}

/** The linear values of two 8-bit codes, as doubles. */
function pairOf(linear: usize, first: u8, second: u8): v128 {
  const low = v128.load32_zero(linear + ((<usize>first) << 2));
  return f64x2.promote_low_f32x4(v128.load32_lane(linear + ((<usize>second) << 2), low, 1));
}

/** `x·r + y·g + z·b`, added in that order. */
function weighted(r: v128, g: v128, b: v128, x: f64, y: f64, z: f64): v128 {
  return f64x2.add(f64x2.add(f64x2.mul(f64x2.splat(x), r), f64x2.mul(f64x2.splat(y), g)), f64x2.mul(f64x2.splat(z), b));
}

/** `interpolated` for two indices. */
function interpolatedPair(table: usize, at: v128): v128 {
  const first = f64x2.extract_lane(at, 0);
  const second = f64x2.extract_lane(at, 1);
  return f64x2.replace_lane(f64x2.splat(interpolated(table, first)), 1, interpolated(table, second));
}

/** The table at the fractional index `at` (never negative), linearly between its neighbours. */
function interpolated(table: usize, at: f64): f64 {
  const i = <i32>at;
  const entry = table + ((<usize>i) << 2);
  const low = <f64>load<f32>(entry);
  return low + (<f64>load<f32>(entry, 4) - low) * (at - <f64>i);
}
