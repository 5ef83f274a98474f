import { describe, expect, it } from 'vitest';
import { enforceConnectivity } from './connectivity.js';
import type { Window } from './geometry.js';
import type { Seeds } from './seeds.js';
import { enforceConnectivity as reference } from './testing/reference/connectivity.js';
import { differingElements } from './testing/same-bits.js';

/** Seeds where only the sizes matter (the speck threshold). */
function seedsOfSize(sizes: number[]): Seeds {
  const count = sizes.length;
  return {
    count,
    x: new Float32Array(count),
    y: new Float32Array(count),
    size: Float32Array.from(sizes),
    person: new Uint8Array(count),
    outline: new Uint8Array(count),
    line: new Uint8Array(count),
    cos: new Float32Array(count),
    sin: new Float32Array(count),
  };
}

/** Labels of blobs grown from scattered points with ragged edges, crumbs and unassigned pixels. */
function ragged(width: number, height: number, count: number, seed: number): Int32Array {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const points = Array.from({ length: count }, () => [random() * width, random() * height] as const);
  const labels = new Int32Array(width * height);
  for (let i = 0; i < labels.length; i++) {
    const x = (i % width) + random() * 3;
    const y = Math.floor(i / width) + random() * 3;
    let best = 0;
    let nearest = Number.POSITIVE_INFINITY;
    points.forEach(([px, py], t) => {
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < nearest) {
        nearest = d;
        best = t;
      }
    });
    labels[i] = random() < 0.01 ? -1 : best;
  }
  return labels;
}

describe('enforceConnectivity', () => {
  it('numbers the pieces as the JavaScript it replaced did, whole and in parts', () => {
    const cases: [number, number, Window | undefined][] = [
      [64, 48, undefined],
      [67, 31, undefined],
      [64, 48, { left: 5, top: 3, right: 60, bottom: 41 }],
      [64, 48, { left: 63, top: 0, right: 64, bottom: 48 }],
      [1, 1, undefined],
    ];
    for (const [index, [width, height, region]] of cases.entries()) {
      const count = 2 + index * 9;
      const seeds = seedsOfSize(Array.from({ length: count }, (_, s) => 4 + (s % 7) * 3));
      const labels = ragged(width, height, count, index + 3);
      const want = reference(labels.slice(), width, height, seeds, region);
      const got = enforceConnectivity(labels.slice(), width, height, seeds, region);
      expect(got.count).toBe(want.count);
      expect(differingElements(got.labels, want.labels)).toBe(0);
      expect(differingElements(got.origin, want.origin)).toBe(0);
    }
  });

  it('splits a tile in two pieces and folds a crumb into the piece left of it', () => {
    // Seed 0 on both sides of seed 1's column; one pixel of seed 2 inside seed 1.
    const width = 9;
    const height = 6;
    const labels = new Int32Array(width * height).map((_, i) => (i % width >= 3 && i % width < 6 ? 1 : 0));
    labels[2 * width + 4] = 2;
    const { labels: tiles, origin, count } = enforceConnectivity(labels, width, height, seedsOfSize([4, 4, 4]));
    expect(count).toBe(3);
    expect([...origin]).toEqual([0, 1, 0]);
    expect(tiles[0]).toBe(0);
    expect(tiles[4]).toBe(1);
    expect(tiles[8]).toBe(2);
    expect(tiles[2 * width + 4]).toBe(1);
  });
});
