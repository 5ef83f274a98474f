import { beforeAll, describe, expect, it } from 'vitest';
import { sobel } from './gradient.js';
import { buildGuides, type Guides } from './guides.js';
import type { Landmarks } from './landmarks.js';
import { type LayingInputs, layingInputs } from './testing/laying-inputs.js';
import { PORTRAIT_NAMES } from './testing/photos.js';
import { buildGuides as reference } from './testing/reference/guides.js';
import { differingElements } from './testing/same-bits.js';

const GRIDS = ['nearX', 'nearY', 'distance', 'tangentX', 'tangentY'] as const;

function differing(got: Guides, want: Guides): Record<(typeof GRIDS)[number], number> {
  const counts = { nearX: 0, nearY: 0, distance: 0, tangentX: 0, tangentY: 0 };
  for (const grid of GRIDS) counts[grid] = differingElements(got[grid], want[grid]);
  return counts;
}

const NONE = { nearX: 0, nearY: 0, distance: 0, tangentX: 0, tangentY: 0 };

/** A landmark group: a small closed square around (x, y), artwork pixels. */
function square(x: number, y: number, side: number): Float32Array {
  return Float32Array.of(x, y, x + side, y, x + side, y + side, x, y + side);
}

function landmarksAt(x: number, y: number): Landmarks {
  const group = square(x, y, 10);
  return {
    outline: square(x - 20, y - 30, 60),
    rightEye: group,
    leftEye: group,
    rightBrow: group,
    leftBrow: group,
    lips: group,
    mouth: group,
    nose: group,
    cheeks: group,
  };
}

/** A picture of a disc (the person) with stripes inside it, and its person share. */
function synthetic(width: number, height: number) {
  const luma = new Float32Array(width * height);
  const mask = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.hypot(x - width / 2, y - height / 2) / (Math.min(width, height) / 2.5);
      mask[y * width + x] = Math.min(1, Math.max(0, 1.5 - r));
      luma[y * width + x] = (Math.floor((x + 2 * y) / 5) % 2) * 80 + 10 * Math.sin(x * 0.7);
    }
  }
  return { gradient: sobel(luma, width, height, 'test-guides-luma'), mask };
}

describe('the guide lines', () => {
  const photos: LayingInputs[] = [];
  beforeAll(async () => {
    for (const name of PORTRAIT_NAMES) photos.push(await layingInputs(name));
  }, 120_000);

  it('find the same nearest points, distances and directions as the JavaScript they replaced, on the test photos', () => {
    expect(photos.length).toBe(PORTRAIT_NAMES.length);
    for (const { gradient, mask, gridWidth, gridHeight, landmarks } of photos) {
      const want = reference(gradient, mask, gridWidth, gridHeight, landmarks);
      const got = buildGuides(gradient, mask, gridWidth, gridHeight, landmarks);
      expect(differing(got, want)).toEqual(NONE);
      // The photos have strong edges and a silhouette: most cells take a guide's direction.
      let guided = 0;
      for (let i = 0; i < got.tangentX.length; i++) if (got.tangentX[i] !== 0 || got.tangentY[i] !== 0) guided++;
      expect(guided).toBeGreaterThan(got.tangentX.length / 2);
    }
  });

  it('and on small grids of every width modulo four, with and without a guide', () => {
    for (const [width, height] of [
      [1, 1],
      [2, 3],
      [5, 4],
      [7, 9],
      [13, 6],
      [40, 33],
    ] as const) {
      const { gradient, mask } = synthetic(width, height);
      for (const landmarks of [landmarksAt(width * 2, height * 2), landmarksAt(-500, -500)]) {
        const want = reference(gradient, mask, width, height, landmarks);
        const got = buildGuides(gradient, mask, width, height, landmarks);
        expect(differing(got, want)).toEqual(NONE);
      }
      // Nobody there: no guide, every cell far from one.
      const empty = new Float32Array(width * height);
      const got = buildGuides(gradient, empty, width, height, landmarksAt(-500, -500));
      expect(differing(got, reference(gradient, empty, width, height, landmarksAt(-500, -500)))).toEqual(NONE);
      expect(Math.min(...got.distance)).toBeGreaterThan(1e5);
    }
  });

  it('put every cell of a disc-shaped person within reach of its silhouette', () => {
    const width = 40;
    const height = 33;
    const { gradient, mask } = synthetic(width, height);
    const guides = buildGuides(gradient, mask, width, height, landmarksAt(-500, -500));
    for (let i = 0; i < width * height; i++) expect(guides.distance[i]).toBeLessThan(4 * 40);
  });
});
