import { describe, expect, it } from 'vitest';
import { upsampleMask } from './resample.js';
import { upsampleMask as reference } from './testing/reference/resample.js';
import { differingElements } from './testing/same-bits.js';

function noise(length: number, seed: number): Uint8Array {
  let state = seed;
  return new Uint8Array(length).map(() => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 24;
  });
}

describe('upsampleMask', () => {
  it('writes the same bits as the JavaScript it replaced, enlarging, shrinking and one cell', () => {
    for (const [mw, mh, width, height] of [
      [256, 256, 270, 338],
      [256, 256, 540, 675],
      [7, 5, 3, 2],
      [1, 1, 4, 3],
      [3, 4, 1, 1],
    ] as const) {
      const mask = noise(mw * mh, mw * 7 + height);
      const got = upsampleMask(mask, mw, mh, width, height);
      expect(differingElements(got, reference(mask, mw, mh, width, height))).toBe(0);
    }
  });

  it('keeps a flat map flat and spans 0–1', () => {
    const full = upsampleMask(new Uint8Array(16).fill(255), 4, 4, 9, 7);
    expect(full.every((v) => v === 1)).toBe(true);
    // A step from 0 to 255 between the halves rises across the middle, monotonic along each row.
    const step = new Uint8Array(8 * 2).map((_, i) => (i % 8 < 4 ? 0 : 255));
    const row = upsampleMask(step, 8, 2, 16, 1);
    expect(row[0]).toBe(0);
    expect(row[15]).toBe(1);
    for (let x = 1; x < 16; x++) expect(row[x] as number).toBeGreaterThanOrEqual(row[x - 1] as number);
  });
});
