import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';
import { placeSeeds } from './seeds.js';
import { buildTiles, quarterOf } from './superpixels.js';

/**
 * The tessellation on a synthetic picture: a dark and a light half meeting on a vertical edge that
 * the seed layout knows nothing about, everything "person", uniform 16-px tiles.
 */
const width = 320;
const height = 240;
const edge = 164;
const size = 16;

function scene() {
  const hw = width / 2;
  const hh = height / 2;
  const lab = new Float32Array(hw * hh * 3);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) lab[(y * hw + x) * 3] = (x + 0.5) * 2 < edge ? 25 : 75;
  }
  const half = {
    width: hw,
    height: hh,
    lab,
    mask: new Float32Array(hw * hh).fill(1),
    inverseSpacing2: new Float32Array(hw * hh).fill(1 / (size / 2) ** 2),
  };
  const map = {
    sizes: new Float32Array((width / 4) * (height / 4)).fill(size),
    width: width / 4,
    height: height / 4,
    cell: 4,
  };
  const quarter = {
    ...quarterOf(half.lab, half.mask, hw, hh),
    inverseSpacing2: new Float32Array((hw / 2) * (hh / 2)).fill(1 / (size / 4) ** 2),
  };
  const seeds = placeSeeds(map, () => true, width, height, { x: width / 2, y: height / 2 }, createRandom(1));
  return { half, quarter, seeds };
}

describe('tessellation', () => {
  it('lays about one seed per size² of area', () => {
    const { seeds } = scene();
    expect(seeds.count).toBeGreaterThan(0.85 * ((width * height) / size ** 2));
    expect(seeds.count).toBeLessThan(1.15 * ((width * height) / size ** 2));
  });

  it('grows tiles that follow an edge instead of crossing it', () => {
    const { half, quarter, seeds } = scene();
    const tiles = buildTiles(half, quarter, seeds, width, height);
    const left = new Float64Array(tiles.count);
    const total = new Float64Array(tiles.count);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const t = tiles.labels[y * width + x] as number;
        total[t] = (total[t] as number) + 1;
        if (x + 0.5 < edge) left[t] = (left[t] as number) + 1;
      }
    }
    let straddling = 0;
    for (let t = 0; t < tiles.count; t++) {
      const share = (left[t] as number) / (total[t] as number);
      if (share > 0.05 && share < 0.95) straddling++;
    }
    // A plain Voronoi of these seeds would cut the edge with about one tile per row of tiles.
    expect(straddling).toBeLessThanOrEqual(1);
    expect(tiles.count).toBeGreaterThan(0.8 * seeds.count);
  });

  it('leaves no pixel without a tile and no tile in pieces', () => {
    const { half, quarter, seeds } = scene();
    const tiles = buildTiles(half, quarter, seeds, width, height);
    const seen = new Uint8Array(tiles.count);
    for (const t of tiles.labels.subarray(0, width * height)) {
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThan(tiles.count);
      seen[t] = 1;
    }
    expect(seen.every((v) => v === 1)).toBe(true);
  });
});
