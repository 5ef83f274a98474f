import { describe, expect, it } from 'vitest';
import { DEFAULT_ART } from './art.js';
import type { FrameOverlay } from './brand-frame.js';
import type { Window } from './geometry.js';
import { loadModels } from './index.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { createRandom } from './random.js';
import { NO_TILE } from './refine.js';
import { decode, findFace, frame, paint, segment, storyOf, tessellate } from './stages.js';
import { PORTRAIT_NAMES, portrait } from './testing/photos.js';
import { tileOutlines as reference } from './testing/reference/tile-outlines.js';
import { differingElements } from './testing/same-bits.js';
import { type Directions, type Outlines, tileOutlines } from './tile-outlines.js';

/**
 * The tiles' outlines measured by the WebAssembly against the JavaScript it replaced: on the 4:5
 * and the story of real renders, as the laying plan asks for them, and on small label maps with
 * odd widths, one tile, a window at the picture's edge and pixels no tile holds.
 */

const FIELDS = ['present', 'cx', 'cy', 'cornerStart', 'corners'] as const;

function expectSame(got: Outlines, want: Outlines): void {
  for (const field of FIELDS) expect(differingElements(got[field], want[field]), field).toBe(0);
}

function both(
  labels: Uint16Array,
  width: number,
  window: Window,
  count: number,
  look: Directions,
  measured: (t: number) => boolean,
) {
  return {
    got: tileOutlines(labels, width, window, count, look, measured),
    want: reference(labels, width, window, count, look, measured),
  };
}

/** The part of a frame's canvas its windows leave open, as the laying plan measures it. */
function windowOf({ innerLeft, innerRight, windows }: FrameOverlay): Window {
  const first = windows[0];
  const last = windows[windows.length - 1];
  if (!first || !last) throw new Error('the frame has no window');
  return { left: innerLeft, top: first.top, right: innerRight, bottom: last.bottom };
}

describe.each(PORTRAIT_NAMES)('outlines of %s', (name) => {
  it('match the JavaScript on the 4:5 and the story', async () => {
    await loadModels();
    const decoded = await decode(await portrait(name));
    const framed = await frame(decoded, await findFace(decoded));
    const random = createRandom(1);
    const tiles = await tessellate(framed, await segment(framed), random);
    const painted = await paint(tiles, framed, DEFAULT_ART, 'standard', random);
    const story = await storyOf(framed, painted, tiles, DEFAULT_ART, 'standard', random);
    const postWindow = windowOf(painted.frame);
    const post = both(tiles.labels, LAYOUT.width, postWindow, tiles.count, story.look, () => true);
    expectSame(post.got, post.want);
    const measured = (t: number) => t >= tiles.count || post.want.present[t] === 0;
    const inStory = both(
      story.labels,
      STORY_LAYOUT.width,
      windowOf(story.frame),
      story.look.count,
      story.look,
      measured,
    );
    expectSame(inStory.got, inStory.want);
    // Every tile of the 4:5's window has an outline of at least a triangle.
    const shown = post.got.present.reduce((sum, p) => sum + p, 0);
    expect(shown).toBeGreaterThan(tiles.count / 2);
    for (let t = 0; t < tiles.count; t++) {
      if (post.got.present[t] === 1)
        expect((post.got.cornerStart[t + 1] as number) - (post.got.cornerStart[t] as number)).toBeGreaterThanOrEqual(3);
    }
  }, 120_000);
});

/** Directions for `count` tiles: turned by a different angle each, the first along the rows. */
function directions(count: number): Directions {
  const cos = new Float32Array(count);
  const sin = new Float32Array(count);
  for (let t = 0; t < count; t++) {
    const angle = t === 0 ? 0 : t * 0.7 - 1.3;
    cos[t] = Math.cos(angle);
    sin[t] = Math.sin(angle);
  }
  return { cos, sin };
}

/** A label map of blobs of `count` tiles, with pixels no tile holds and labels past the count. */
function blobs(width: number, height: number, count: number, seed: number): Uint16Array {
  const random = createRandom(seed);
  const labels = new Uint16Array(width * height);
  const centres = Array.from({ length: count }, () => [random() * width, random() * height] as const);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = 0;
      let nearest = Number.POSITIVE_INFINITY;
      centres.forEach(([cx, cy], t) => {
        const d = (x - cx) ** 2 + ((y - cy) * 1.7) ** 2;
        if (d < nearest) {
          nearest = d;
          best = t;
        }
      });
      const r = random();
      labels[y * width + x] = r < 0.03 ? NO_TILE : r < 0.04 ? count + 3 : best;
    }
  }
  return labels;
}

describe('outlines of small label maps', () => {
  const cases: [string, number, number, number, Window][] = [
    ['an odd width', 37, 23, 9, { left: 0, top: 0, right: 37, bottom: 23 }],
    ['one tile', 13, 11, 1, { left: 2, top: 1, right: 11, bottom: 10 }],
    ['a window at the right and bottom edges', 41, 30, 12, { left: 17, top: 9, right: 41, bottom: 30 }],
    ['a window of odd height inside', 29, 27, 7, { left: 3, top: 4, right: 26, bottom: 21 }],
    ['one-pixel slivers', 9, 5, 30, { left: 0, top: 0, right: 9, bottom: 5 }],
  ];
  it.each(cases)('match the JavaScript on %s', (_, width, height, count, window) => {
    for (let seed = 1; seed <= 4; seed++) {
      const labels = blobs(width, height, count, seed);
      const look = directions(count);
      const all = both(labels, width, window, count, look, () => true);
      expectSame(all.got, all.want);
      expect(all.got.corners.length).toBeGreaterThanOrEqual(6);
      const some = both(labels, width, window, count, look, (t) => t % 2 === 1);
      expectSame(some.got, some.want);
    }
  });

  it('mark nothing in a window no tile holds', () => {
    const labels = new Uint16Array(15 * 6).fill(NO_TILE);
    const { got, want } = both(labels, 15, { left: 0, top: 0, right: 15, bottom: 6 }, 4, directions(4), () => true);
    expectSame(got, want);
    expect(got.present.every((p) => p === 0)).toBe(true);
    expect(got.corners.length).toBe(0);
  });
});
