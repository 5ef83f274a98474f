import { beforeAll, describe, expect, it } from 'vitest';
import type { SizeMap } from './detail.js';
import type { Window } from './geometry.js';
import { sobel } from './gradient.js';
import { buildGuides, GUIDE_CELL } from './guides.js';
import type { Landmarks } from './landmarks.js';
import { createRandom } from './random.js';
import { placeSeeds, type Seeds } from './seeds.js';
import { type LayingInputs, layingInputs } from './testing/laying-inputs.js';
import { PORTRAIT_NAMES } from './testing/photos.js';
import { buildGuides as referenceGuides } from './testing/reference/guides.js';
import { placeSeeds as reference } from './testing/reference/seeds.js';
import { differingElements } from './testing/same-bits.js';

const FIELDS = ['x', 'y', 'size', 'person', 'outline', 'line', 'cos', 'sin'] as const;

/** Per field, how many stones differ in any bit (all of them when the counts differ). */
function differing(got: Seeds, want: Seeds): Record<string, number> {
  const counts: Record<string, number> = { count: got.count === want.count ? 0 : 1 };
  for (const field of FIELDS) counts[field] = differingElements(got[field], want[field]);
  return counts;
}

const NONE = { count: 0, x: 0, y: 0, size: 0, person: 0, outline: 0, line: 0, cos: 0, sin: 0 };

function square(x: number, y: number, side: number): Float32Array {
  return Float32Array.of(x, y, x + side, y, x + side, y + side, x, y + side);
}

/** A synthetic scene: a disc-shaped person with stripes, sizes growing across it, a face in it. */
function synthetic(gw: number, gh: number, faceAt: number) {
  const luma = new Float32Array(gw * gh);
  const mask = new Float32Array(gw * gh);
  const sizes = new Float32Array(gw * gh);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const r = Math.hypot(x - gw / 2, y - gh / 2) / (Math.min(gw, gh) / 2.5);
      mask[y * gw + x] = Math.min(1, Math.max(0, 1.5 - r));
      luma[y * gw + x] = (Math.floor((x + 2 * y) / 6) % 2) * 90;
      sizes[y * gw + x] = 7 + (x / gw) * 30;
    }
  }
  const face = square(faceAt, faceAt, 12);
  const landmarks: Landmarks = {
    outline: square(faceAt - 20, faceAt - 20, 50),
    rightEye: face,
    leftEye: face,
    rightBrow: face,
    leftBrow: face,
    lips: face,
    mouth: face,
    nose: face,
    cheeks: face,
  };
  const guides = referenceGuides(sobel(luma, gw, gh, 'test-seeds-luma'), mask, gw, gh, landmarks);
  const map: SizeMap = { sizes, width: gw, height: gh, cell: GUIDE_CELL };
  return { guides, mask, map };
}

describe('laying the seeds', () => {
  const photos: LayingInputs[] = [];
  beforeAll(async () => {
    for (const name of PORTRAIT_NAMES) photos.push(await layingInputs(name));
  }, 120_000);

  it('lays and settles the same stones as the JavaScript it replaced, on the test photos', () => {
    expect(photos.length).toBe(PORTRAIT_NAMES.length);
    for (const inputs of photos) {
      const { gradient, mask, gridWidth, gridHeight, landmarks, sizeMap, width, height, centre, within } = inputs;
      const wantGuides = referenceGuides(gradient, mask, gridWidth, gridHeight, landmarks);
      const want = reference(sizeMap, wantGuides, mask, width, height, centre, createRandom(7), within);
      const guides = buildGuides(gradient, mask, gridWidth, gridHeight, landmarks);
      const got = placeSeeds(sizeMap, guides, mask, width, height, centre, createRandom(7), within);
      expect(differing(got, want)).toEqual(NONE);
      // A portrait: rows of the visitor's stones along its lines, and the background's around them.
      let visitor = 0;
      let lines = 0;
      for (let s = 0; s < got.count; s++) {
        visitor += got.person[s] as number;
        lines += got.line[s] as number;
      }
      expect(visitor).toBeGreaterThan(1000);
      expect(got.count - visitor).toBeGreaterThan(100);
      expect(lines).toBeGreaterThan(200);
    }
  });

  it('and on synthetic scenes, whole or within a window, with guides made elsewhere', () => {
    for (const [gw, gh, faceAt] of [
      [80, 60, 150],
      [37, 41, 60],
      [9, 5, 10],
    ] as const) {
      const width = gw * GUIDE_CELL;
      const height = gh * GUIDE_CELL;
      const { guides, mask, map } = synthetic(gw, gh, faceAt);
      const windows: (Window | undefined)[] = [undefined, { left: 20, top: 10, right: width - 30, bottom: height / 2 }];
      for (const within of windows) {
        const centre = { x: width / 3, y: height / 2 };
        const want = reference(map, guides, mask, width, height, centre, createRandom(3), within);
        const got = placeSeeds(map, guides, mask, width, height, centre, createRandom(3), within);
        expect(differing(got, want)).toEqual(NONE);
        expect(got.count).toBeGreaterThan(0);
      }
    }
  });

  it('keeps every new stone clear of those laid before it', () => {
    const { guides, mask, map } = synthetic(80, 60, 150);
    const seeds = placeSeeds(map, guides, mask, 320, 240, { x: 100, y: 120 }, createRandom(5));
    let tooNear = 0;
    for (let a = 0; a < seeds.count; a++) {
      for (let b = a + 1; b < seeds.count; b++) {
        const mean = ((seeds.size[a] as number) + (seeds.size[b] as number)) / 2;
        const d = Math.hypot(
          (seeds.x[a] as number) - (seeds.x[b] as number),
          (seeds.y[a] as number) - (seeds.y[b] as number),
        );
        if (d < 0.3 * mean) tooNear++;
      }
    }
    expect(tooNear).toBe(0);
  });
});
