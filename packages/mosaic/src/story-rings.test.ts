import { describe, expect, it } from 'vitest';
import { STORY_LAYOUT } from './layout.js';
import { createRandom } from './random.js';
import { scratch } from './scratch.js';
import { assignNearest, type Field, FREE, REACH, type RingSeed, ringSeeds, SPACING } from './story-rings.js';
import { assignNearest as reference } from './testing/reference/story-rings.js';
import { differingElements } from './testing/same-bits.js';

/**
 * The story's own stones, cut by the WebAssembly, against the JavaScript it replaced, on fields
 * shaped as the story's (kept tiles and the plaque among free pixels) but small, with widths of
 * every parity; the whole story is compared on real renders in `story.test.ts`.
 */

const { width, height, offset } = STORY_LAYOUT;
/** Labels of the kept tiles: below the new stones' first. */
const KEPT_TILES = 200;
const FIRST = 1000;
/** The plaque's label while the stones are cut, as `story.ts` gives it. */
const PLAQUE = FREE - 1;

interface Case {
  field: Field;
  seeds: RingSeed[];
  /** The labels before the stones are cut: kept tiles, the plaque and free pixels. */
  before: Uint16Array;
  free: number;
}

/**
 * A field (story rows `from`–`to`, columns `left`–`right`) whose middle rows hold kept tiles,
 * rectangles kept at `density` with the rest free, and a patch of the plaque; the ring seeds
 * around it, every `thin`-th only.
 */
function fieldCase(from: number, to: number, left: number, right: number, density: number, thin = 1): Case {
  const random = createRandom(from * 7 + left);
  const rows = to - from;
  const mixed = new Uint8Array(rows);
  const mixedFrom = Math.floor(rows / 4);
  const mixedTo = Math.floor((rows * 3) / 4);
  mixed.fill(1, mixedFrom, mixedTo);
  const before = new Uint16Array(width * height).fill(FREE);
  for (let y = from + mixedFrom; y < from + mixedTo; y += 9) {
    for (let x = left; x < right; x += 13) {
      if (random() >= density) continue;
      const tile = Math.floor(random() * KEPT_TILES);
      for (let yy = y; yy < Math.min(y + 9, from + mixedTo); yy++)
        before.fill(tile, yy * width + x, yy * width + Math.min(x + 13, right));
    }
  }
  const plaqueY = from + Math.floor((mixedFrom + mixedTo) / 2);
  for (let y = plaqueY; y < Math.min(plaqueY + 6, from + mixedTo); y++)
    before.fill(PLAQUE, y * width + left + 5, y * width + left + 30);
  const centre = { x: (left + right) / 2 + 37.3, y: (from + to) / 2 - offset - 61.9 };
  const margin = 2 * SPACING;
  const all = ringSeeds(centre, new Float64Array(0), random, 0, (x, y) => {
    const sy = y + offset;
    return x < left - margin || x > right + margin || sy < from - margin || sy > to + margin;
  });
  const seeds = all.filter((_, i) => i % thin === 0).map((seed, i) => ({ ...seed, tile: FIRST + i }));
  let free = 0;
  for (let y = from; y < to; y++) for (let x = left; x < right; x++) if (before[y * width + x] === FREE) free++;
  return { field: { from, to, left, right, mixed }, seeds, before, free };
}

/** Both versions' labels for `c`. */
function cut(c: Case): { got: Uint16Array; want: Uint16Array } {
  const got = scratch('test-story-rings-labels', Uint16Array, width * height);
  got.set(c.before);
  assignNearest(got, c.field, c.seeds, FIRST, c.free);
  const want = c.before.slice();
  reference(want, c.field, c.seeds, FIRST, c.free);
  return { got, want };
}

/**
 * Pixels of the field's free rows farther from their stone's seed than its square reaches (in the
 * rows with kept tiles, a chip joined to its neighbour may be too).
 */
function beyondSquares(c: Case, labels: Uint16Array): number {
  const reach = REACH * SPACING;
  let beyond = 0;
  for (let y = c.field.from; y < c.field.to; y++) {
    for (let x = c.field.left; x < c.field.right; x++) {
      const l = labels[y * width + x] as number;
      if (c.field.mixed[y - c.field.from] === 1 || l < FIRST) continue;
      const seed = c.seeds[l - FIRST] as RingSeed;
      const dx = x + 0.5 - seed.x;
      const dy = y - offset + 0.5 - seed.y;
      const d = Math.max(Math.abs(dx * seed.cos + dy * seed.sin), Math.abs(dy * seed.cos - dx * seed.sin));
      if (d > reach) beyond++;
    }
  }
  return beyond;
}

describe('assignNearest', () => {
  it('labels every free pixel as the JavaScript it replaced did, on fields of every width modulo four', () => {
    for (const [from, to, left, right] of [
      [200, 330, 40, 301],
      [431, 520, 97, 190],
      [26, 140, 26, 1054],
      [1700, 1894, 500, 503],
    ] as const) {
      const c = fieldCase(from, to, left, right, 0.6);
      expect(c.seeds.length).toBeGreaterThan(0);
      const { got, want } = cut(c);
      expect(differingElements(got, want)).toBe(0);
      // Every free pixel of the field has a new stone; the kept tiles and the plaque stay.
      let wrong = 0;
      for (let y = from; y < to; y++) {
        for (let x = left; x < right; x++) {
          const was = c.before[y * width + x] as number;
          const now = got[y * width + x] as number;
          if (was === FREE ? now < FIRST || now >= FIRST + c.seeds.length : now !== was) wrong++;
        }
      }
      expect(wrong).toBe(0);
    }
  });

  it('gives the pixels no square reaches to the nearest seed, as the JavaScript did', () => {
    // Every third seed only: gaps open between their squares.
    const c = fieldCase(300, 420, 101, 334, 0.5, 3);
    const { got, want } = cut(c);
    expect(beyondSquares(c, got)).toBeGreaterThan(0);
    expect(differingElements(got, want)).toBe(0);
    let free = 0;
    for (let y = c.field.from; y < c.field.to; y++)
      for (let x = c.field.left; x < c.field.right; x++) if (got[y * width + x] === FREE) free++;
    expect(free).toBe(0);
  });

  it('joins the chips left among kept tiles to a stone beside them, as the JavaScript did', () => {
    const c = fieldCase(600, 900, 200, 613, 0.75);
    const { got, want } = cut(c);
    expect(differingElements(got, want)).toBe(0);
    // A seed's own place is always its stone's unless the stone, a chip, joined another.
    let joined = 0;
    for (const seed of c.seeds) {
      const x = Math.floor(seed.x);
      const y = Math.floor(seed.y) + offset;
      if (x < c.field.left || x >= c.field.right || y < c.field.from || y >= c.field.to) continue;
      const i = y * width + x;
      if (c.before[i] === FREE && got[i] !== seed.tile) joined++;
    }
    expect(joined).toBeGreaterThan(0);
  });
});
