import type { Gradient } from '../../gradient.js';

/** The JavaScript the engine's WebAssembly `sobel` replaced, kept as the reference its test compares with. */
export function sobel(values: Float32Array, width: number, height: number): Gradient {
  const n = width * height;
  const gxs = new Float32Array(n);
  const gys = new Float32Array(n);
  const magnitude = new Float32Array(n);
  // Only the border is left 0: every other cell is written below.
  for (const grid of [gxs, gys, magnitude]) {
    grid.fill(0, 0, width);
    grid.fill(0, n - width);
    for (let y = 1; y < height - 1; y++) {
      grid[y * width] = 0;
      grid[y * width + width - 1] = 0;
    }
  }
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const a = values[i - width - 1] as number;
      const b = values[i - width] as number;
      const c = values[i - width + 1] as number;
      const d = values[i - 1] as number;
      const f = values[i + 1] as number;
      const g = values[i + width - 1] as number;
      const h = values[i + width] as number;
      const k = values[i + width + 1] as number;
      const gx = c + 2 * f + k - a - 2 * d - g;
      const gy = g + 2 * h + k - a - 2 * b - c;
      gxs[i] = gx;
      gys[i] = gy;
      magnitude[i] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  return { gx: gxs, gy: gys, magnitude };
}
