import { addressOf, scratch } from './scratch.js';
import { wasmFunction } from './wasm.js';

/** A grid's Sobel gradient: its two components and magnitude per cell; the border cells stay 0. */
export interface Gradient {
  gx: Float32Array;
  gy: Float32Array;
  magnitude: Float32Array;
}

const sobelLoop =
  wasmFunction<(values: number, width: number, height: number, gx: number, gy: number, magnitude: number) => void>(
    'sobel',
  );

/**
 * The Sobel gradient of `values` (`width`×`height`), in scratch buffers named after `name`: the
 * tessellation reads the quarter-size lightness's gradient twice (the size map's edges and the
 * guide lines' crests and directions), so it is computed once and handed to both.
 */
export function sobel(values: Float32Array, width: number, height: number, name: string): Gradient {
  const n = width * height;
  const gx = scratch(`${name}-gx`, Float32Array, n);
  const gy = scratch(`${name}-gy`, Float32Array, n);
  const magnitude = scratch(`${name}-magnitude`, Float32Array, n);
  // Only the border is left 0: every other cell is written by the loop.
  for (const grid of [gx, gy, magnitude]) {
    grid.fill(0, 0, width);
    grid.fill(0, n - width);
    for (let y = 1; y < height - 1; y++) {
      grid[y * width] = 0;
      grid[y * width + width - 1] = 0;
    }
  }
  const input = addressOf(values, `${name}-input`);
  sobelLoop(input, width, height, gx.byteOffset, gy.byteOffset, magnitude.byteOffset);
  return { gx, gy, magnitude };
}
