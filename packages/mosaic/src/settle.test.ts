import { beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from './random.js';
import type { Seeds } from './seeds.js';
import { settleStones } from './settle.js';
import { type LayingInputs, layingInputs } from './testing/laying-inputs.js';
import { PORTRAIT_NAMES } from './testing/photos.js';
import { buildGuides } from './testing/reference/guides.js';
import { laySeeds } from './testing/reference/seeds.js';
import { settleStones as reference } from './testing/reference/settle.js';
import { differingElements } from './testing/same-bits.js';

const SIZE = 13;
const SIDE = 12;
const width = SIDE * SIZE + 40;
const height = width;

/** A square grid of 13-px stones, the visitor's shaken by `jitter` px and up to `turn` radians; a frame of background stones round it. */
function shakenGrid(jitter: number, turn: number): Seeds {
  const random = createRandom(3);
  const count = (SIDE + 2) * (SIDE + 2);
  const seeds: Seeds = {
    count,
    x: new Float32Array(count),
    y: new Float32Array(count),
    size: new Float32Array(count).fill(SIZE),
    person: new Uint8Array(count),
    outline: new Uint8Array(count),
    line: new Uint8Array(count),
    cos: new Float32Array(count),
    sin: new Float32Array(count),
  };
  let s = 0;
  for (let row = -1; row <= SIDE; row++) {
    for (let column = -1; column <= SIDE; column++, s++) {
      const inside = row >= 0 && column >= 0 && row < SIDE && column < SIDE;
      const angle = inside ? (random() * 2 - 1) * turn : 0;
      seeds.x[s] = 20 + (column + 0.5) * SIZE + (inside ? (random() * 2 - 1) * jitter : 0);
      seeds.y[s] = 20 + (row + 0.5) * SIZE + (inside ? (random() * 2 - 1) * jitter : 0);
      seeds.person[s] = inside ? 1 : 0;
      seeds.cos[s] = Math.cos(angle);
      seeds.sin[s] = Math.sin(angle);
    }
  }
  return seeds;
}

/** Mean angle of the visitor's stones off the grid (radians, as squares: 0–45°). */
function meanTurn(seeds: Seeds): number {
  let sum = 0;
  let n = 0;
  for (let s = 0; s < seeds.count; s++) {
    if (seeds.person[s] !== 1) continue;
    const angle = Math.abs(Math.atan2(seeds.sin[s] as number, seeds.cos[s] as number)) % (Math.PI / 2);
    sum += Math.min(angle, Math.PI / 2 - angle);
    n++;
  }
  return sum / n;
}

/** Mean distance of the visitor's stones from their grid places (px). */
function meanOffset(seeds: Seeds): number {
  let sum = 0;
  let n = 0;
  for (let s = 0; s < seeds.count; s++) {
    if (seeds.person[s] !== 1) continue;
    const gx = ((seeds.x[s] as number) - 20) / SIZE - 0.5;
    const gy = ((seeds.y[s] as number) - 20) / SIZE - 0.5;
    sum += Math.hypot(gx - Math.round(gx), gy - Math.round(gy)) * SIZE;
    n++;
  }
  return sum / n;
}

describe('settling the stones', () => {
  it('turns shaken stones back into line with their neighbours and evens their gaps', () => {
    const seeds = shakenGrid(2.5, 0.3);
    const turnBefore = meanTurn(seeds);
    const offsetBefore = meanOffset(seeds);
    settleStones(seeds, width, height);
    expect(meanTurn(seeds)).toBeLessThan(turnBefore / 3);
    expect(meanOffset(seeds)).toBeLessThan(offsetBefore / 2);
  });

  it('leaves the background stones where they were laid', () => {
    const seeds = shakenGrid(2.5, 0.3);
    const beforeX = Float32Array.from(seeds.x);
    const beforeY = Float32Array.from(seeds.y);
    settleStones(seeds, width, height);
    for (let s = 0; s < seeds.count; s++) {
      if (seeds.person[s] === 1) continue;
      expect(seeds.x[s]).toBe(beforeX[s]);
      expect(seeds.y[s]).toBe(beforeY[s]);
    }
  });

  it('leaves a stone with no neighbour within reach where and as it was laid', () => {
    const seeds: Seeds = {
      count: 2,
      x: Float32Array.of(60, 140),
      y: Float32Array.of(60, 140),
      size: Float32Array.of(SIZE, SIZE),
      person: Uint8Array.of(1, 1),
      outline: new Uint8Array(2),
      line: new Uint8Array(2),
      cos: Float32Array.of(Math.cos(0.3), Math.cos(-0.2)),
      sin: Float32Array.of(Math.sin(0.3), Math.sin(-0.2)),
    };
    settleStones(seeds, width, height);
    expect(Array.from(seeds.x)).toEqual([60, 140]);
    expect(Array.from(seeds.y)).toEqual([60, 140]);
    expect(Math.atan2(seeds.sin[0] as number, seeds.cos[0] as number)).toBeCloseTo(0.3, 5);
    expect(Math.atan2(seeds.sin[1] as number, seeds.cos[1] as number)).toBeCloseTo(-0.2, 5);
  });

  it('keeps a settled grid as it is', () => {
    const seeds = shakenGrid(0, 0);
    settleStones(seeds, width, height);
    expect(meanTurn(seeds)).toBeLessThan(1e-4);
    expect(meanOffset(seeds)).toBeLessThan(1e-3);
  });
});

function copyOf(seeds: Seeds): Seeds {
  return {
    count: seeds.count,
    x: seeds.x.slice(),
    y: seeds.y.slice(),
    size: seeds.size.slice(),
    person: seeds.person.slice(),
    outline: seeds.outline.slice(),
    line: seeds.line.slice(),
    cos: seeds.cos.slice(),
    sin: seeds.sin.slice(),
  };
}

/** Stones whose place or direction differ in any bit between the two settlings. */
function differingStones(got: Seeds, want: Seeds): number {
  return (
    differingElements(got.x, want.x) +
    differingElements(got.y, want.y) +
    differingElements(got.cos, want.cos) +
    differingElements(got.sin, want.sin)
  );
}

/** Settles a copy of `seeds` both ways; how many stones differ, and how many moved. */
function compare(seeds: Seeds, width: number, height: number): { differing: number; moved: number } {
  const got = copyOf(seeds);
  const want = copyOf(seeds);
  settleStones(got, width, height);
  reference(want, width, height);
  let moved = 0;
  for (let s = 0; s < seeds.count; s++) if (got.x[s] !== seeds.x[s] || got.cos[s] !== seeds.cos[s]) moved++;
  return { differing: differingStones(got, want), moved };
}

describe('settling the stones in WebAssembly', () => {
  const photos: LayingInputs[] = [];
  beforeAll(async () => {
    for (const name of PORTRAIT_NAMES) photos.push(await layingInputs(name));
  }, 120_000);

  it('settles the stones laid on the test photos to the same bits as the JavaScript it replaced', () => {
    expect(photos.length).toBe(PORTRAIT_NAMES.length);
    for (const { gradient, mask, gridWidth, gridHeight, landmarks, sizeMap, width, height, centre, within } of photos) {
      const guides = buildGuides(gradient, mask, gridWidth, gridHeight, landmarks);
      const laid = laySeeds(sizeMap, guides, mask, width, height, centre, createRandom(1), within);
      const { differing, moved } = compare(laid, width, height);
      expect(differing).toBe(0);
      expect(moved).toBeGreaterThan(laid.count / 2);
    }
  });

  it("and shaken grids, one stone, stones of the eyes' size and stones off the artwork", () => {
    for (const [jitter, turn] of [
      [2.5, 0.3],
      [6, 1.2],
      [0, 0],
    ] as const) {
      expect(compare(shakenGrid(jitter, turn), width, height).differing).toBe(0);
    }
    const fine = shakenGrid(1.5, 0.4);
    fine.size.fill(7.5);
    expect(compare(fine, width, height).differing).toBe(0);
    const off = shakenGrid(3, 0.2);
    off.x[0] = -5;
    off.y[0] = height + 3;
    expect(compare(off, width, height).differing).toBe(0);
    const lone: Seeds = { ...copyOf(off), count: 1 };
    expect(compare(lone, width, height).differing).toBe(0);
  });
});
