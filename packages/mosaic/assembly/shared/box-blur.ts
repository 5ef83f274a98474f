import { f32At, setF32 } from './arrays';

/**
 * A box blur's pass along the rows of `v` (floats, `width`×`height`) into `rows`, edges clamped,
 * with a double-precision running sum scaled by `norm`; the columns' pass is each caller's own.
 */
export function blurRows(v: usize, width: i32, height: i32, radius: i32, norm: f64, rows: usize): void {
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    const from = v + ((<usize>(y * width)) << 2);
    const to = rows + ((<usize>(y * width)) << 2);
    let sum: f64 = 0;
    for (let k = -radius; k <= radius; k++) sum += f32At(from, min(last, max(0, k)));
    const inner0 = min(width, radius);
    const inner1 = max(inner0, width - radius - 1);
    let x = 0;
    for (; x < inner0; x++) {
      setF32(to, x, sum * norm);
      sum += f32At(from, min(last, x + radius + 1)) - f32At(from, max(0, x - radius));
    }
    for (; x < inner1; x++) {
      setF32(to, x, sum * norm);
      sum += f32At(from, x + radius + 1) - f32At(from, x - radius);
    }
    for (; x < width; x++) {
      setF32(to, x, sum * norm);
      sum += f32At(from, min(last, x + radius + 1)) - f32At(from, max(0, x - radius));
    }
  }
}
