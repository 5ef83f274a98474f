import { describe, expect, it } from 'vitest';
import { imageToLab } from './colour.js';
import { scratch } from './scratch.js';
import { imageToLab as reference } from './testing/reference/colour.js';
import { differingElements } from './testing/same-bits.js';

/** Every colour with blue `b`, red and green running through all 256 levels. */
function plane(b: number): Uint8Array {
  const rgb = new Uint8Array(256 * 256 * 3);
  for (let i = 0; i < 256 * 256; i++) {
    rgb[i * 3] = i & 255;
    rgb[i * 3 + 1] = i >> 8;
    rgb[i * 3 + 2] = b;
  }
  return rgb;
}

describe('imageToLab', () => {
  it('converts every 8-bit sRGB colour to the same bits as the JavaScript it replaced', () => {
    let differing = 0;
    for (let b = 0; b < 256; b++) {
      const rgb = plane(b);
      differing += differingElements(imageToLab(rgb), reference(rgb));
    }
    expect(differing).toBe(0);
  });

  it('writes into an array in the engine memory as into any other', () => {
    const rgb = Uint8Array.of(255, 255, 255, 0, 0, 0, 200, 40, 90);
    const inMemory = imageToLab(rgb, scratch('test-lab', Float32Array, rgb.length));
    expect(differingElements(inMemory, reference(rgb))).toBe(0);
  });

  it('puts white at L* 100 and black at 0, both without chroma', () => {
    const [l0, a0, b0, l1, a1, b1] = imageToLab(Uint8Array.of(255, 255, 255, 0, 0, 0));
    expect(l0).toBeCloseTo(100, 2);
    expect(Math.hypot(a0 as number, b0 as number)).toBeLessThan(0.05);
    expect(l1).toBeCloseTo(0, 2);
    expect(Math.hypot(a1 as number, b1 as number)).toBeLessThan(0.05);
  });
});
