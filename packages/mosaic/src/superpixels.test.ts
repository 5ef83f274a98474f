import { describe, expect, it } from 'vitest';
import { buildSizeMap } from './detail.js';
import type { Window } from './geometry.js';
import { sobel } from './gradient.js';
import { buildGuides, GUIDE_CELL } from './guides.js';
import type { Landmarks } from './landmarks.js';
import { LAYOUT, POST_WINDOW } from './layout.js';
import { personProbability } from './person-mask.js';
import { createRandom } from './random.js';
import { placeSeeds, type Seeds } from './seeds.js';
import { buildTiles, NO_TILE, quarterOf, type Tiles, type WorkingImage } from './superpixels.js';
import { framedInputs } from './testing/framed-inputs.js';
import { quarterOf as referenceQuarter, buildTiles as referenceTiles } from './testing/reference/superpixels.js';
import { differingElements } from './testing/same-bits.js';

/**
 * The tessellation on a synthetic picture: a dark and a light half meeting on a slanted edge,
 * everything "person", uniform 13-px tiles, and a face far off the canvas.
 */
const width = 320;
const height = 240;
const size = 13;
/** The edge runs through (160, 120) at this angle from the vertical. */
const SLANT = 0.35;
const edgeX = (y: number) => 160 + (y - 120) * Math.tan(SLANT);

const away = Float32Array.of(-500, -500, -490, -500, -490, -490);
const faceAway: Landmarks = {
  outline: away,
  rightEye: away,
  leftEye: away,
  rightBrow: away,
  leftBrow: away,
  lips: away,
  mouth: away,
  nose: away,
  cheeks: away,
};

function scene() {
  const hw = width / 2;
  const hh = height / 2;
  const rgb = new Uint8Array(hw * hh * 3);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++)
      rgb.fill((x + 0.5) * 2 < edgeX((y + 0.5) * 2) ? 60 : 190, (y * hw + x) * 3, (y * hw + x + 1) * 3);
  }
  const mask = new Float32Array(hw * hh).fill(1);
  const quarter = quarterOf(rgb, mask, hw, hh);
  const half = { width: hw, height: hh, rgb, mask, lab: quarter.lab, labWidth: quarter.width };
  const gw = quarter.width;
  const gh = quarter.height;
  const luma = new Float32Array(gw * gh);
  for (let i = 0; i < luma.length; i++) luma[i] = quarter.lab[i * 3] as number;
  const map = { sizes: new Float32Array(gw * gh).fill(size), width: gw, height: gh, cell: GUIDE_CELL };
  const guides = buildGuides(sobel(luma, gw, gh, 'test-luma'), quarter.mask, gw, gh, faceAway);
  const lay = (within?: Window) =>
    placeSeeds(map, guides, quarter.mask, width, height, { x: width / 2, y: height / 2 }, createRandom(1), within);
  const seeds = lay();
  return { half, seeds, lay, tiles: buildTiles(half, seeds, width, height) };
}

/** Each tile's pixels as (x, y) lists. */
function pixelsOf(labels: Uint16Array, count: number): number[][] {
  const pixels: number[][] = Array.from({ length: count }, () => []);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) (pixels[labels[y * width + x] as number] as number[]).push(x, y);
  }
  return pixels;
}

/** Area ÷ the smallest rectangle around the tile, searched over directions in 3° steps. */
function rectangularity(points: number[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let a = 0; a < 90; a += 3) {
    const c = Math.cos((a * Math.PI) / 180);
    const s = Math.sin((a * Math.PI) / 180);
    let u0 = Number.POSITIVE_INFINITY;
    let u1 = Number.NEGATIVE_INFINITY;
    let v0 = Number.POSITIVE_INFINITY;
    let v1 = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < points.length; i += 2) {
      const u = (points[i] as number) * c + (points[i + 1] as number) * s;
      const v = (points[i + 1] as number) * c - (points[i] as number) * s;
      u0 = Math.min(u0, u);
      u1 = Math.max(u1, u);
      v0 = Math.min(v0, v);
      v1 = Math.max(v1, v);
    }
    best = Math.min(best, (u1 - u0 + 1) * (v1 - v0 + 1));
  }
  return points.length / 2 / best;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

describe('tessellation', () => {
  const { seeds, tiles } = scene();

  it('lays about one tessera per size² of area', () => {
    expect(seeds.count).toBeGreaterThan(0.8 * ((width * height) / size ** 2));
    expect(seeds.count).toBeLessThan(1.25 * ((width * height) / size ** 2));
  });

  it('lays the tesserae along the edge, not across it', () => {
    let straddling = 0;
    const angles: number[] = [];
    const pixels = pixelsOf(tiles.labels, tiles.count);
    for (let t = 0; t < tiles.count; t++) {
      const points = pixels[t] as number[];
      let left = 0;
      for (let i = 0; i < points.length; i += 2)
        if ((points[i] as number) + 0.5 < edgeX(points[i + 1] as number)) left++;
      const share = left / (points.length / 2);
      // The picture's first and last rows of cells have no gradient to find the edge by.
      const y = tiles.y[t] as number;
      if (y < size || y > height - size) continue;
      // A stone's side may run a pixel over the edge; a tenth of it over is a tile across the edge.
      if (share > 0.1 && share < 0.9) straddling++;
      // Within two tile widths of the edge the rows run along it.
      const gap = Math.abs((tiles.x[t] as number) - edgeX(y)) * Math.cos(SLANT);
      if (gap < 2 * size) {
        const along = Math.abs((tiles.cos[t] as number) * Math.sin(SLANT) + (tiles.sin[t] as number) * Math.cos(SLANT));
        angles.push((Math.acos(Math.min(1, along)) * 180) / Math.PI);
      }
    }
    // A plain Voronoi of scattered seeds would cut the edge with about one tile per row of tiles.
    expect(straddling).toBeLessThanOrEqual(1);
    expect(angles.length).toBeGreaterThan(20);
    expect(median(angles)).toBeLessThan(10);
  });

  it('cuts square stones of near-even size', () => {
    const pixels = pixelsOf(tiles.labels, tiles.count);
    const inside = pixels.filter((_, t) => {
      const x = tiles.x[t] as number;
      const y = tiles.y[t] as number;
      return x > size && y > size && x < width - size && y < height - size;
    });
    expect(median(inside.map(rectangularity))).toBeGreaterThan(0.8);
    const areas = inside.map((points) => points.length / 2).sort((a, b) => a - b);
    // The middle half of the tiles lie within 0.6–1.4 of the nominal size².
    expect((areas[Math.floor(areas.length / 4)] as number) / size ** 2).toBeGreaterThan(0.6);
    expect((areas[Math.floor((areas.length * 3) / 4)] as number) / size ** 2).toBeLessThan(1.4);
  });

  it('leaves no pixel without a tile and no tile in pieces', () => {
    const seen = new Uint8Array(tiles.count);
    for (const t of tiles.labels.subarray(0, width * height)) {
      expect(t).toBeLessThan(tiles.count);
      seen[t] = 1;
    }
    expect(seen.every((v) => v === 1)).toBe(true);
  });
});

describe('buildTiles within a part of the artwork', () => {
  const within = { left: 40, top: 30, right: 280, bottom: 200 };
  const inside = (x: number, y: number, margin: number) =>
    x >= within.left + margin && x < within.right - margin && y >= within.top + margin && y < within.bottom - margin;

  it('lays only the stones that reach into it', () => {
    const { seeds: all, lay } = scene();
    const seeds = lay(within);
    expect(seeds.count).toBeLessThan(all.count);
    for (let s = 0; s < seeds.count; s++) {
      // Laid within a size of it; settling moves a stone by less than another.
      const reach = 2 * (seeds.size[s] as number);
      const x = seeds.x[s] as number;
      const y = seeds.y[s] as number;
      expect(x > within.left - reach && x < within.right + reach).toBe(true);
      expect(y > within.top - reach && y < within.bottom + reach).toBe(true);
    }
  });

  it('cuts tiles there only, and there the very tiles the whole cut gives', () => {
    const { half, seeds } = scene();
    // Both cuts share their scratch labels: the whole one is copied before the part is cut.
    const whole = buildTiles(half, seeds, width, height);
    const wholeLabels = whole.labels.slice(0, width * height);
    const part = buildTiles(half, seeds, width, height, within);
    expect(part.cut).toEqual(within);
    expect(part.count).toBeLessThan(whole.count);
    let compared = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const t = part.labels[y * width + x] as number;
        if (!inside(x, y, 0)) {
          expect(t).toBe(NO_TILE);
          continue;
        }
        expect(t).toBeLessThan(part.count);
        // Two tiles in from the edge every tile lies wholly inside: its pixels, colour and centre are the same.
        if (!inside(x, y, 2 * size)) continue;
        const w = wholeLabels[y * width + x] as number;
        expect([part.x[t], part.y[t], ...part.lab.subarray(t * 3, t * 3 + 3)]).toEqual([
          whole.x[w],
          whole.y[w],
          ...whole.lab.subarray(w * 3, w * 3 + 3),
        ]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('cuts a part with odd edges out to whole half-size pixels, with a tile on every pixel of it', () => {
    const { half, seeds } = scene();
    const odd = { left: 41, top: 31, right: 279, bottom: 199 };
    const { labels, count, cut } = buildTiles(half, seeds, width, height, odd);
    expect(cut).toEqual({ left: 40, top: 30, right: 280, bottom: 200 });
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const t = labels[y * width + x] as number;
        const inCut = x >= cut.left && x < cut.right && y >= cut.top && y < cut.bottom;
        if (inCut) expect(t).toBeLessThan(count);
        else expect(t).toBe(NO_TILE);
      }
    }
  });
});

/** The fields of two cuts that differ in any bit: none when the WebAssembly cut as the JavaScript did. */
function differingFields(got: Tiles, want: Tiles): string[] {
  const differing: string[] = [];
  if (got.count !== want.count) differing.push('count');
  if (JSON.stringify(got.cut) !== JSON.stringify(want.cut)) differing.push('cut');
  for (const key of [
    'labels',
    'person',
    'outline',
    'seed',
    'line',
    'spacing',
    'x',
    'y',
    'cos',
    'sin',
    'lab',
  ] as const) {
    if (differingElements(got[key], want[key]) !== 0) differing.push(key);
  }
  return differing;
}

/** The stones laid on a test portrait as the render lays them, with its working image. */
async function portraitCut(name: string, within: Window) {
  const { framed, person } = await framedInputs(name);
  const { half, landmarks } = framed;
  const mask = personProbability(framed, person);
  const quarter = quarterOf(half.data, mask, half.width, half.height);
  const want = referenceQuarter(half.data, mask, half.width, half.height);
  const quarterDiffering = differingElements(quarter.lab, want.lab) + differingElements(quarter.mask, want.mask);
  const luma = new Float32Array(quarter.mask.length).map((_, i) => quarter.lab[i * 3] as number);
  const gradient = sobel(luma, quarter.width, quarter.height, 'test-portrait-luma');
  const { width, height } = LAYOUT;
  const sizes = buildSizeMap(gradient.magnitude, quarter.mask, quarter.width, quarter.height, GUIDE_CELL, landmarks);
  const guides = buildGuides(gradient, quarter.mask, quarter.width, quarter.height, landmarks);
  const seeds: Seeds = placeSeeds(
    sizes,
    guides,
    quarter.mask,
    width,
    height,
    framed.framing.target,
    createRandom(1),
    within,
  );
  const working: WorkingImage = { ...half, rgb: half.data, mask, lab: quarter.lab, labWidth: quarter.width };
  return { working, seeds, quarterDiffering };
}

describe('the tessellation in WebAssembly', () => {
  const { width, height } = LAYOUT;
  const margin = 4;
  const cut = {
    left: POST_WINDOW.left - margin,
    top: POST_WINDOW.top - margin,
    right: POST_WINDOW.right + margin,
    bottom: POST_WINDOW.bottom + margin,
  };

  it.each([
    ['sample1', cut],
    ['sample4', cut],
    ['sample6', { left: 0, top: 0, right: width, bottom: height }],
  ])('cuts %s into the very tiles the JavaScript cut', { timeout: 60_000 }, async (name, within) => {
    const { working, seeds, quarterDiffering } = await portraitCut(name, within);
    expect(quarterDiffering).toBe(0);
    const want = referenceTiles(working, seeds, width, height, within);
    const got = buildTiles(working, seeds, width, height, within);
    expect(got.count).toBeGreaterThan(1000);
    expect(differingFields(got, want)).toEqual([]);
  });

  it('cuts the synthetic scene, whole and in odd parts, as the JavaScript did', () => {
    const { half, seeds } = scene();
    for (const within of [
      { left: 0, top: 0, right: width, bottom: height },
      { left: 41, top: 31, right: 279, bottom: 199 },
      { left: 2, top: 0, right: 18, bottom: 240 },
      { left: 100, top: 100, right: 103, bottom: 101 },
    ]) {
      const sceneWidth = half.width * 2;
      const sceneHeight = half.height * 2;
      const want = referenceTiles(half, seeds, sceneWidth, sceneHeight, within);
      const got = buildTiles(half, seeds, sceneWidth, sceneHeight, within);
      expect(got.count).toBeGreaterThan(0);
      expect(differingFields(got, want)).toEqual([]);
    }
  });

  it('averages odd-sized images into quarters as the JavaScript did', () => {
    for (const [w, h] of [
      [1, 1],
      [3, 5],
      [8, 7],
      [17, 2],
    ] as const) {
      const rgb = new Uint8Array(w * h * 3).map((_, i) => (i * 97 + w * 13) % 256);
      const mask = new Float32Array(w * h).map((_, i) => ((i * 37) % 101) / 100);
      const got = quarterOf(rgb, mask, w, h);
      const want = referenceQuarter(rgb, mask, w, h);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      expect(differingElements(got.lab, want.lab)).toBe(0);
      expect(differingElements(got.mask, want.mask)).toBe(0);
    }
  });
});
