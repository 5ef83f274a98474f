import { describe, expect, it } from 'vitest';
import { sobel } from './gradient.js';
import { sobel as reference } from './testing/reference/gradient.js';
import { differingElements } from './testing/same-bits.js';

function noise(width: number, height: number, seed: number): Float32Array {
  const values = new Float32Array(width * height);
  let state = seed;
  for (let i = 0; i < values.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    values[i] = (state / 2 ** 32) * 100 - 20;
  }
  return values;
}

describe('sobel', () => {
  it('writes the same bits as the JavaScript it replaced, on grids of every width modulo four', () => {
    for (const [width, height] of [
      [270, 338],
      [3, 3],
      [5, 4],
      [6, 7],
      [17, 9],
    ] as const) {
      const values = noise(width, height, width * 31 + height);
      const got = sobel(values, width, height, 'test-sobel');
      const want = reference(values, width, height);
      expect(differingElements(got.gx, want.gx)).toBe(0);
      expect(differingElements(got.gy, want.gy)).toBe(0);
      expect(differingElements(got.magnitude, want.magnitude)).toBe(0);
    }
  });

  it('finds a vertical edge pointing across it, and leaves the border at zero', () => {
    const width = 8;
    const height = 6;
    const values = new Float32Array(width * height).map((_, i) => (i % width < 4 ? 0 : 10));
    const { gx, gy, magnitude } = sobel(values, width, height, 'test-sobel');
    expect(gx[2 * width + 4]).toBe(40);
    expect(gy[2 * width + 4]).toBe(0);
    expect(magnitude[2 * width + 3]).toBe(40);
    expect(magnitude[2 * width + 1]).toBe(0);
    expect(magnitude[4]).toBe(0);
  });
});
