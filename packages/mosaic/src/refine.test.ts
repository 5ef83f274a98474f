import { describe, expect, it } from 'vitest';
import type { Window } from './geometry.js';
import { NO_TILE, refineToFull } from './refine.js';
import { createCentres, type WorkingImage } from './slic-metric.js';
import { refineToFull as reference } from './testing/reference/refine.js';
import { differingElements } from './testing/same-bits.js';

/** A deterministic stream of numbers in [0, 1). */
function stream(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Half-resolution labels cut by `count` scattered centres (nearest by plain distance), with the
 * centres turned and sized at random and a person mask of noise: joints of every direction.
 */
function tessellation(width: number, height: number, count: number, seed: number) {
  const random = stream(seed);
  const hw = Math.ceil(width / 2);
  const hh = Math.ceil(height / 2);
  const centres = createCentres(count);
  for (let t = 0; t < count; t++) {
    const angle = random() * Math.PI;
    centres.x[t] = random() * hw;
    centres.y[t] = random() * hh;
    centres.m[t] = random();
    centres.cos[t] = Math.cos(angle);
    centres.sin[t] = Math.sin(angle);
    centres.inverseSize[t] = 2 / (6 + random() * 12);
  }
  const labels = new Int32Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      let best = 0;
      let nearest = Number.POSITIVE_INFINITY;
      for (let t = 0; t < count; t++) {
        const d = ((centres.x[t] as number) - x) ** 2 + ((centres.y[t] as number) - y) ** 2;
        if (d < nearest) {
          nearest = d;
          best = t;
        }
      }
      labels[y * hw + x] = best;
    }
  }
  const mask = new Float32Array(hw * hh).map(() => (random() < 0.5 ? random() : Math.round(random())));
  const half: WorkingImage = {
    width: hw,
    height: hh,
    rgb: new Uint8Array(hw * hh * 3),
    mask,
    lab: new Float32Array(0),
    labWidth: 0,
  };
  return { half, labels, centres };
}

describe('refineToFull', () => {
  it('redraws the joints as the JavaScript it replaced did, for every parity of size and part', () => {
    const cases: [number, number, Window | undefined][] = [
      [120, 90, undefined],
      [121, 90, undefined],
      [120, 91, undefined],
      [33, 47, undefined],
      [120, 90, { left: 3, top: 5, right: 50, bottom: 40 }],
      [121, 91, { left: 0, top: 2, right: 61, bottom: 46 }],
      [120, 90, { left: 7, top: 7, right: 8, bottom: 30 }],
      [2, 2, undefined],
    ];
    for (const [index, [width, height, region]] of cases.entries()) {
      const { half, labels, centres } = tessellation(width, height, 3 + index * 7, index + 1);
      const want = reference(half, labels, centres, width, height, region);
      const got = refineToFull(half, labels, centres, width, height, region);
      expect(differingElements(got, want), `${width}×${height} ${JSON.stringify(region)}`).toBe(0);
    }
  });

  it('runs the joint between two upright tiles straight, halfway between their centres', () => {
    const width = 40;
    const height = 20;
    const { half, centres } = tessellation(width, height, 2, 1);
    // Tile 0 left of half-resolution column 10, tile 1 from it on; their centres 8 columns apart.
    const labels = new Int32Array(half.width * half.height).map((_, i) => (i % half.width < 10 ? 0 : 1));
    half.mask.fill(1);
    for (const [t, x] of [
      [0, 5],
      [1, 13],
    ] as const) {
      centres.x[t] = x;
      centres.y[t] = 5;
      centres.m[t] = 1;
      centres.cos[t] = 1;
      centres.sin[t] = 0;
      centres.inverseSize[t] = 2 / 16;
    }
    const got = refineToFull(half, labels, centres, width, height, { left: 0, top: 0, right: 20, bottom: 10 });
    for (let y = 0; y < height; y++) {
      // Artwork column 18 lies at half-resolution 8.75, nearer 5 than 13 by the square metric.
      expect([...got.subarray(y * width + 17, y * width + 21)]).toEqual([0, 0, 1, 1]);
    }
    expect(got.includes(NO_TILE)).toBe(false);
  });
});
