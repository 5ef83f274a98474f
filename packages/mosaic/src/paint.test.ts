import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ART } from './art.js';
import type { Window } from './geometry.js';
import { loadModels } from './index.js';
import { LAYOUT, POST_WINDOW, STORY_LAYOUT } from './layout.js';
import { allocateLook, drawTilesIn, nearFigure, type TileLook } from './paint.js';
import { createRandom } from './random.js';
import { scratch } from './scratch.js';
import { decode, findFace, frame, type Painted, paint, segment, storyOf, tessellate } from './stages.js';
import type { PaintedStory } from './story.js';
import type { Tiles } from './superpixels.js';
import { portrait } from './testing/photos.js';
import { drawTilesIn as referenceDraw, nearFigure as referenceNear } from './testing/reference/paint.js';
import { differingElements } from './testing/same-bits.js';

/** What the pixels outside the drawn parts hold before drawing: drawing must leave them so. */
const UNTOUCHED = 7;

/** Draws with the engine and with the reference into canvases filled alike; returns both. */
function drawBoth(
  labels: Uint16Array,
  width: number,
  height: number,
  look: TileLook,
  parts: readonly Window[],
  lightRow: number,
): { got: Uint8Array; want: Uint8Array } {
  const got = scratch('test-paint-out', Uint8Array, width * height * 3).fill(UNTOUCHED);
  const want = new Uint8Array(width * height * 3).fill(UNTOUCHED);
  drawTilesIn(labels, width, height, look, parts, got, lightRow);
  referenceDraw(labels, width, height, look, parts, want, lightRow);
  return { got, want };
}

/** Tiles as the nearest of `count` random centres, with looks spanning the engine's (and clamps'). */
function synthetic(width: number, height: number, count: number, seed: number) {
  const random = createRandom(seed);
  const xs = Array.from({ length: count }, () => random() * width);
  const ys = Array.from({ length: count }, () => random() * height);
  const labels = new Uint16Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let best = 0;
      for (let t = 1; t < count; t++) {
        const d = ((xs[t] as number) - x) ** 2 + ((ys[t] as number) - y) ** 2;
        if (d < ((xs[best] as number) - x) ** 2 + ((ys[best] as number) - y) ** 2) best = t;
      }
      labels[y * width + x] = best;
    }
  const look = allocateLook(count);
  for (let t = 0; t < count; t++) {
    const spacing = 6 + random() * 30;
    for (let c = 0; c < 3; c++) {
      // Some colours bright enough that their light runs past 255.
      look.rgb[t * 3 + c] = random() < 0.2 ? 240 + random() * 15 : random() * 255;
      look.joint[t * 3 + c] = random() * 255;
    }
    look.glass[t] = random() < 0.5 ? 1 : 0;
    look.wide[t] = spacing >= 20 ? 1 : 0;
    look.base[t] = 0.7 + random() * 0.6;
    look.slopeX[t] = (random() - 0.5) * 0.01;
    look.slopeY[t] = (random() - 0.5) * 0.01;
    look.bevel[t] = look.glass[t] === 1 ? 0.04 : 0.06;
    look.sheen[t] = look.glass[t] === 1 ? (random() < 0.5 ? 0.04 : 0.08) : 0;
    look.inverseHalf[t] = 2 / spacing;
    look.cx[t] = xs[t] as number;
    look.cy[t] = ys[t] as number;
  }
  return { labels, look };
}

describe('drawing the tiles', () => {
  it('writes the same bits as the JavaScript it replaced, in parts of every width modulo four', () => {
    for (const [width, height, count] of [
      [64, 48, 12],
      [37, 29, 40],
      [101, 57, 6],
      [8, 9, 3],
    ] as const) {
      const { labels, look } = synthetic(width, height, count, width * 7 + height);
      const random = createRandom(count);
      const parts: Window[] = [{ left: 2, top: 2, right: width - 2, bottom: height - 2 }];
      for (let k = 0; k < 30; k++) {
        const left = 2 + Math.floor(random() * (width - 4));
        const top = 2 + Math.floor(random() * (height - 4));
        const right = left + 1 + Math.floor(random() * (width - 2 - left));
        const bottom = top + 1 + Math.floor(random() * (height - 2 - top));
        parts.push({ left, top, right, bottom });
      }
      for (const lightRow of [0, 3, -40]) {
        const whole = drawBoth(labels, width, height, look, parts.slice(0, 1), lightRow);
        expect(differingElements(whole.got, whole.want)).toBe(0);
        for (const part of parts.slice(1)) {
          const { got, want } = drawBoth(labels, width, height, look, [part], lightRow);
          expect(differingElements(got, want)).toBe(0);
        }
        const several = drawBoth(labels, width, height, look, parts.slice(1, 9), lightRow);
        expect(differingElements(several.got, several.want)).toBe(0);
      }
    }
  });

  it('paints a tile in its colour under its light, with a joint where it meets the next', () => {
    const width = 24;
    const height = 12;
    // Two narrow tiles side by side: a flat light, no bevel or sheen.
    const labels = new Uint16Array(width * height).map((_, i) => (i % width < 12 ? 0 : 1));
    const look = allocateLook(2);
    look.rgb.set([200, 100, 50, 10, 20, 30]);
    look.joint.set([90, 91, 92, 93, 94, 95]);
    look.base.fill(1.1);
    look.cos.fill(1);
    const { got } = drawBoth(labels, width, height, look, [{ left: 2, top: 2, right: 22, bottom: 10 }], 0);
    const at = (x: number, y: number) => Array.from(got.subarray((y * width + x) * 3, (y * width + x) * 3 + 3));
    expect(at(5, 5)).toEqual([220, 110, 55]);
    expect(at(11, 5)).toEqual([90, 91, 92]);
    expect(at(12, 5)).toEqual([11, 22, 33]);
    expect(at(1, 5)).toEqual([UNTOUCHED, UNTOUCHED, UNTOUCHED]);
  });

  it('refuses parts that reach within two pixels of the label map', () => {
    const { labels, look } = synthetic(16, 16, 4, 1);
    const out = scratch('test-paint-out', Uint8Array, 16 * 16 * 3);
    expect(() => drawTilesIn(labels, 16, 16, look, [{ left: 1, top: 2, right: 10, bottom: 10 }], out)).toThrow();
  });
});

describe('drawing the tiles of a render', () => {
  let tiles: Tiles;
  let labels: Uint16Array;
  let painted: Painted;
  let story: PaintedStory;
  let storyLabels: Uint16Array;

  beforeAll(async () => {
    await loadModels();
    const decoded = await decode(await portrait('sample2'));
    const framed = await frame(decoded, await findFace(decoded));
    const random = createRandom(1);
    tiles = await tessellate(framed, await segment(framed), random);
    labels = tiles.labels.slice();
    painted = await paint(tiles, framed, DEFAULT_ART, 'standard', random);
    story = await storyOf(framed, painted, tiles, DEFAULT_ART, 'standard', random);
    // The plaque's place is drawn as the tile after the story's last, as the story draws it.
    storyLabels = story.labels.slice();
    const plaque = story.frame.plaque;
    if (!plaque) throw new Error('the story has no plaque');
    for (let y = plaque.top; y < plaque.top + plaque.height; y++)
      storyLabels.fill(
        story.look.count,
        y * STORY_LAYOUT.width + plaque.left,
        y * STORY_LAYOUT.width + plaque.left + plaque.width,
      );
  }, 120_000);

  it('draws the 4:5 as the JavaScript did, whole and in cells lit from a lower row', () => {
    const { width, height } = LAYOUT;
    const whole = drawBoth(labels, width, height, painted.look, [POST_WINDOW], 0);
    expect(differingElements(whole.got, whole.want)).toBe(0);
    const cells: Window[] = [];
    for (let top = POST_WINDOW.top; top < POST_WINDOW.bottom; top += 40)
      for (let left = POST_WINDOW.left; left < POST_WINDOW.right; left += 56)
        cells.push({
          left,
          top,
          right: Math.min(POST_WINDOW.right, left + 19),
          bottom: Math.min(POST_WINDOW.bottom, top + 8),
        });
    const lit = drawBoth(labels, width, height, painted.look, cells, -STORY_LAYOUT.offset);
    expect(differingElements(lit.got, lit.want)).toBe(0);
  });

  it('draws the story window as the JavaScript did', () => {
    const { width, height, offset } = STORY_LAYOUT;
    const [open] = story.frame.windows;
    if (!open) throw new Error('the story frame has no window');
    const window = { left: story.frame.innerLeft, top: open.top, right: story.frame.innerRight, bottom: open.bottom };
    const look = { ...story.look, count: story.look.count + 1 };
    const { got, want } = drawBoth(storyLabels, width, height, look, [window], offset);
    expect(differingElements(got, want)).toBe(0);
  });
});

describe('nearFigure', () => {
  it('finds the same points near a figure as the JavaScript it replaced', () => {
    const random = createRandom(5);
    const count = 600;
    const x = Float32Array.from({ length: count }, () => random() * 1080);
    const y = Float32Array.from({ length: count }, () => random() * 1350);
    // A figure in a disc, a few scattered tiles beside it.
    const figure = (t: number) =>
      (((x[t] as number) - 540) ** 2 + ((y[t] as number) - 600) ** 2 < 300 ** 2 && t % 3 !== 0) || t % 97 === 0;
    for (const area of [
      { left: 0, top: 0, right: 1080, bottom: 1350 },
      { left: 0, top: -37, right: 1080, bottom: 1405 },
    ]) {
      const got = nearFigure(count, x, y, figure, area);
      const want = referenceNear(count, x, y, figure, area);
      let differing = 0;
      let near = 0;
      for (let py = area.top; py < area.bottom; py += 3)
        for (let px = area.left; px < area.right; px += 3) {
          if (got(px, py) !== want(px, py)) differing++;
          if (got(px, py)) near++;
        }
      expect(differing).toBe(0);
      expect(near).toBeGreaterThan(0);
    }
  });

  it('counts a point near within the margin of a figure tile, and not twice as far', () => {
    const near = nearFigure(1, [500], [500], () => true, { left: 0, top: 0, right: 1080, bottom: 1350 });
    expect(near(500, 540)).toBe(true);
    expect(near(500, 620)).toBe(false);
    expect(near(620, 500)).toBe(false);
  });
});
