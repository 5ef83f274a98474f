import { hi, joined, lo } from './shared/lanes';

/**
 * The Sobel gradient of a float grid (`src/gradient.ts`), four cells at a time. Each cell is
 * computed in double precision and rounded to single on the store, in the order the JavaScript
 * reference adds its terms, so both write the same bits.
 */
export function sobel(values: usize, width: i32, height: i32, gxs: usize, gys: usize, magnitude: usize): void {
  const stride = (<usize>width) << 2;
  const two = f64x2.splat(2);
  for (let y = 1; y < height - 1; y++) {
    const row = (<usize>(y * width)) << 2;
    let x = 1;
    for (; x + 4 <= width - 1; x += 4) {
      const i = row + ((<usize>x) << 2);
      const above = values + i - stride;
      const here = values + i;
      const below = values + i + stride;
      const a = v128.load(above - 4);
      const b = v128.load(above);
      const c = v128.load(above + 4);
      const d = v128.load(here - 4);
      const f = v128.load(here + 4);
      const g = v128.load(below - 4);
      const h = v128.load(below);
      const k = v128.load(below + 4);
      // The two low lanes, then the two high lanes, each as doubles.
      const gxLow = difference(lo(c), lo(f), lo(k), lo(a), lo(d), lo(g), two);
      const gyLow = difference(lo(g), lo(h), lo(k), lo(a), lo(b), lo(c), two);
      const gxHigh = difference(hi(c), hi(f), hi(k), hi(a), hi(d), hi(g), two);
      const gyHigh = difference(hi(g), hi(h), hi(k), hi(a), hi(b), hi(c), two);
      v128.store(gxs + i, joined(gxLow, gxHigh));
      v128.store(gys + i, joined(gyLow, gyHigh));
      v128.store(magnitude + i, joined(length(gxLow, gyLow), length(gxHigh, gyHigh)));
    }
    for (; x < width - 1; x++) {
      const i = row + ((<usize>x) << 2);
      const a = <f64>load<f32>(values + i - stride - 4);
      const b = <f64>load<f32>(values + i - stride);
      const c = <f64>load<f32>(values + i - stride + 4);
      const d = <f64>load<f32>(values + i - 4);
      const f = <f64>load<f32>(values + i + 4);
      const g = <f64>load<f32>(values + i + stride - 4);
      const h = <f64>load<f32>(values + i + stride);
      const k = <f64>load<f32>(values + i + stride + 4);
      const gx = c + 2 * f + k - a - 2 * d - g;
      const gy = g + 2 * h + k - a - 2 * b - c;
      store<f32>(gxs + i, <f32>gx);
      store<f32>(gys + i, <f32>gy);
      store<f32>(magnitude + i, <f32>Math.sqrt(gx * gx + gy * gy));
    }
  }
}

/** `p + 2q + r - s - 2t - u`, added in that order. */
function difference(p: v128, q: v128, r: v128, s: v128, t: v128, u: v128, two: v128): v128 {
  return f64x2.sub(f64x2.sub(f64x2.sub(f64x2.add(f64x2.add(p, f64x2.mul(two, q)), r), s), f64x2.mul(two, t)), u);
}

function length(gx: v128, gy: v128): v128 {
  return f64x2.sqrt(f64x2.add(f64x2.mul(gx, gx), f64x2.mul(gy, gy)));
}
