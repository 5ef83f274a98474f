import { describe, expect, it } from 'vitest';
import { axisError, type MeasureInput, measureArtwork, randomMedian } from './andamento-measures.js';
import { convexHull, minimumRectangle } from './tile-shapes.js';

/** Synthetic artworks: label maps laid by hand, a photo with known contours, tiles painted with known joints. */
const W = 480;
const H = 480;
const DEG = Math.PI / 180;

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** Rectangles of `w`×`h`, every other row shifted by `shift` (a brick bond). */
function bricks(w: number, h: number, shift = 0): Uint16Array {
  const labels = new Uint16Array(W * H);
  const columns = Math.ceil((W + shift) / w) + 1;
  for (let y = 0; y < H; y++) {
    const row = Math.floor(y / h);
    const offset = row % 2 ? shift : 0;
    for (let x = 0; x < W; x++) labels[y * W + x] = row * columns + Math.floor((x + offset) / w);
  }
  return labels;
}

function voronoi(cells: number, seed: number): Uint16Array {
  const next = random(seed);
  const seeds = Array.from({ length: cells }, () => [next() * W, next() * H] as const);
  const labels = new Uint16Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let best = 0;
      let distance = Number.POSITIVE_INFINITY;
      seeds.forEach(([sx, sy], i) => {
        const d = (sx - x) ** 2 + (sy - y) ** 2;
        if (d < distance) {
          distance = d;
          best = i;
        }
      });
      labels[y * W + x] = best;
    }
  }
  return labels;
}

/** Squares of side `side` on a grid of `pitch`, each turned by its own random angle; label 0 between them. */
function turnedSquares(pitch: number, side: number, seed: number): Uint16Array {
  const next = random(seed);
  const labels = new Uint16Array(W * H);
  const columns = Math.floor(W / pitch);
  for (let gy = 0; gy < Math.floor(H / pitch); gy++) {
    for (let gx = 0; gx < columns; gx++) {
      const angle = next() * Math.PI;
      const cx = (gx + 0.5) * pitch;
      const cy = (gy + 0.5) * pitch;
      for (let y = Math.floor(cy - pitch / 2); y < cy + pitch / 2; y++) {
        for (let x = Math.floor(cx - pitch / 2); x < cx + pitch / 2; x++) {
          const u = (x + 0.5 - cx) * Math.cos(angle) + (y + 0.5 - cy) * Math.sin(angle);
          const v = -(x + 0.5 - cx) * Math.sin(angle) + (y + 0.5 - cy) * Math.cos(angle);
          if (Math.abs(u) <= side / 2 && Math.abs(v) <= side / 2) labels[y * W + x] = 1 + gy * columns + gx;
        }
      }
    }
  }
  return labels;
}

/** A grey photo from a luma function. */
function photo(luma: (x: number, y: number) => number): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.fill(luma(x, y), (y * W + x) * 3, (y * W + x) * 3 + 3);
  return rgb;
}

/** Horizontal stripes 40 px high: a contour every 40 px, running along x. */
const stripes = photo((_, y) => (Math.floor(y / 40) % 2 ? 200 : 50));

/**
 * Paints each tile one colour (dark, varied) and draws `joint(x, y, t)` pixels in a cream grout, like
 * the engine's joints on a tile's right and bottom edge.
 */
function painted(labels: Uint16Array, joint: (x: number, y: number, t: number) => boolean): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const t = labels[i] as number;
      const colour = joint(x, y, t) ? [244, 239, 230] : [60 + ((t * 37) % 80), 50, 90];
      rgb.set(colour, i * 3);
    }
  }
  return rgb;
}

function artwork(labels: Uint16Array, photoRgb: Uint8Array, extra: Partial<MeasureInput> = {}): MeasureInput {
  let count = 0;
  for (const t of labels) count = Math.max(count, t + 1);
  return {
    width: W,
    height: H,
    labels,
    photo: photoRgb,
    painted: painted(labels, () => false),
    personByTile: new Float32Array(count).fill(1),
    window: { left: 0, top: 0, right: W, bottom: H },
    faceOutline: [],
    ...extra,
  };
}

describe('the smallest rectangle around a tile', () => {
  it('finds a turned rectangle’s sides and the direction of its long side', () => {
    const corners = [
      [-20, -5],
      [20, -5],
      [20, 5],
      [-20, 5],
    ].flatMap(([u = 0, v = 0]) => [
      100 + u * Math.cos(30 * DEG) - v * Math.sin(30 * DEG),
      100 + u * Math.sin(30 * DEG) + v * Math.cos(30 * DEG),
    ]);
    const rectangle = minimumRectangle(convexHull([...corners, 100, 100, 105, 98]));
    expect(rectangle.area).toBeCloseTo(400, 6);
    expect(rectangle.long).toBeCloseTo(40, 6);
    expect(rectangle.short).toBeCloseTo(10, 6);
    expect(rectangle.angle / DEG).toBeCloseTo(30, 6);
  });
});

describe('orientation against the contours', () => {
  it('folds squares at 45° and elongated tiles at 90°', () => {
    expect(axisError(80 * DEG, 10 * DEG, true)).toBeCloseTo(20, 6);
    expect(axisError(80 * DEG, 10 * DEG, false)).toBeCloseTo(70, 6);
    expect(axisError(170 * DEG, 10 * DEG, false)).toBeCloseTo(20, 6);
    expect(randomMedian(1)).toBeCloseTo(22.5, 6);
    expect(randomMedian(0)).toBeCloseTo(45, 6);
    expect(randomMedian(0.5)).toBeGreaterThan(22.5);
    expect(randomMedian(0.5)).toBeLessThan(45);
  });

  it('squares laid along straight contours are aligned (0°) and perfectly rectangular', () => {
    const m = measureArtwork(artwork(bricks(16, 16), stripes));
    expect(m.orientation.tiles).toBeGreaterThan(300);
    expect(m.orientation.squares).toBe(1);
    expect(m.orientation.median).toBeLessThan(1);
    expect(m.orientation.random).toBeCloseTo(22.5, 6);
    expect(m.rectangularity.median).toBe(1);
  });

  it('squares under a contour running at 30° are 30° off', () => {
    const slope = Math.tan(30 * DEG);
    const diagonal = photo((x, y) => (y - 120 - x * slope > 0 ? 200 : 50));
    const m = measureArtwork(artwork(bricks(16, 16), diagonal));
    expect(m.orientation.tiles).toBeGreaterThan(50);
    expect(m.orientation.median).toBeGreaterThan(27);
    expect(m.orientation.median).toBeLessThan(33);
  });

  it('bricks along the contours are aligned; bricks standing across them are 90° off', () => {
    const along = measureArtwork(artwork(bricks(32, 16, 16), stripes));
    expect(along.orientation.squares).toBe(0);
    expect(along.orientation.median).toBeLessThan(1);
    expect(along.orientation.random).toBeCloseTo(45, 6);
    const across = measureArtwork(artwork(bricks(16, 32), stripes));
    expect(across.orientation.median).toBeGreaterThan(89);
  });

  it('squares turned at random come out near the random expectation, still rectangular', () => {
    const m = measureArtwork(artwork(turnedSquares(24, 15, 7), stripes));
    expect(m.orientation.tiles).toBeGreaterThan(300);
    expect(m.orientation.squares).toBeGreaterThan(0.9);
    expect(Math.abs(m.orientation.median - m.orientation.random)).toBeLessThan(5);
    expect(m.rectangularity.median).toBeGreaterThan(0.8);
  });

  it('only compares tesserae near a contour: a flat photo measures none', () => {
    const m = measureArtwork(
      artwork(
        bricks(16, 16),
        photo(() => 128),
      ),
    );
    expect(m.orientation.tiles).toBe(0);
  });
});

describe('rectangularity', () => {
  it('does not charge a small stone for its pixel staircase: 8-px squares at any angle read as square', () => {
    const m = measureArtwork(artwork(turnedSquares(16, 8, 5), stripes));
    expect(m.rectangularity.tiles).toBeGreaterThan(500);
    expect(m.rectangularity.median).toBeGreaterThan(0.85);
  });

  it('random Voronoi cells are clearly less rectangular than cut stones', () => {
    const m = measureArtwork(artwork(voronoi(600, 3), stripes));
    expect(m.rectangularity.median).toBeLessThan(0.8);
    expect(m.rectangularity.median).toBeGreaterThan(0.6);
    expect(m.rectangularity.tiles).toBeGreaterThan(500);
  });
});

describe('size spread within a region', () => {
  it('is zero for one size and grows with mixed sizes; face, body and background are apart', () => {
    // Face: a square in the upper left; body: the rest of the left half; background: the right half.
    const labels = bricks(16, 16);
    let count = 0;
    for (const t of labels) count = Math.max(count, t + 1);
    const person = new Float32Array(count);
    for (let t = 0; t < count; t++) person[t] = (t % 31) * 16 < W / 2 ? 1 : 0;
    const face = [
      { x: 0, y: 0 },
      { x: 160, y: 0 },
      { x: 160, y: 160 },
      { x: 0, y: 160 },
    ];
    const even = measureArtwork(artwork(labels, stripes, { personByTile: person, faceOutline: face }));
    for (const region of ['face', 'body', 'background'] as const) {
      expect(even.size[region].tiles, region).toBeGreaterThan(40);
      expect(even.size[region].cv, region).toBe(0);
      expect(even.size[region].median, region).toBe(256);
    }
    // Columns 8 and 24 px wide in turn: areas 128 and 384, mean 256, deviation 128.
    const mixed = new Uint16Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++)
        mixed[y * W + x] = Math.floor(y / 16) * 30 + Math.floor(x / 32) * 2 + (x % 32 >= 8 ? 1 : 0);
    }
    const m = measureArtwork(artwork(mixed, stripes, { personByTile: new Float32Array(900).fill(1) }));
    expect(m.size.body.cv).toBeCloseTo(0.5, 2);
    expect(m.size.face.tiles).toBe(0);
  });
});

describe('grout', () => {
  const grid = bricks(12, 12);
  const lastOf = (v: number) => v % 12 === 11;

  it('reads one-pixel joints on each tile’s right and bottom edge: even, one pixel wide', () => {
    const rgb = painted(grid, (x, y) => lastOf(x) || lastOf(y));
    const { grout } = measureArtwork(artwork(grid, stripes, { painted: rgb }));
    expect(grout.coverage).toBeCloseTo(23 / 144, 2);
    expect(grout.medianWidth).toBe(1);
    expect(grout.widthCv).toBe(0);
    expect(grout.visible).toBe(1);
  });

  it('reads two-pixel joints as two pixels wide, and uneven joints as uneven', () => {
    const wide = painted(grid, (x, y) => lastOf(x) || lastOf(y) || x % 12 === 0 || y % 12 === 0);
    const two = measureArtwork(artwork(grid, stripes, { painted: wide })).grout;
    expect(two.medianWidth).toBe(2);
    expect(two.coverage).toBeCloseTo(44 / 144, 2);
    const uneven = painted(
      grid,
      (x, y, t) => lastOf(x) || lastOf(y) || (t % 2 === 0 && (x % 12 === 0 || y % 12 === 0)),
    );
    expect(measureArtwork(artwork(grid, stripes, { painted: uneven })).grout.widthCv).toBeGreaterThan(0.2);
  });

  it('does not take a spot of sheen inside a tile for a joint', () => {
    const sheen = painted(
      grid,
      (x, y) => lastOf(x) || lastOf(y) || (x % 12 >= 5 && x % 12 <= 6 && y % 12 >= 5 && y % 12 <= 6),
    );
    const { grout } = measureArtwork(artwork(grid, stripes, { painted: sheen }));
    expect(grout.coverage).toBeCloseTo(23 / 144, 2);
  });

  it('sees no joint where none is drawn', () => {
    const { grout } = measureArtwork(artwork(grid, stripes));
    expect(grout.coverage).toBe(0);
    expect(grout.visible).toBe(0);
  });
});
