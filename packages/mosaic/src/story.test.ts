import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import { STORY_ARTWORK } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ART } from './art.js';
import { frameOverlay } from './brand-frame.js';
import { parseHex } from './colour.js';
import { toArtwork } from './framing.js';
import { loadModels, render } from './index.js';
import { mapLandmarks } from './landmarks.js';
import { LAYOUT, POST_WINDOW, STORY_LAYOUT } from './layout.js';
import { createRandom } from './random.js';
import { NO_TILE } from './refine.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { decode, type Framed, findFace, frame, type Painted, paint, segment, storyOf, tessellate } from './stages.js';
import { type PaintedStory, paintStory } from './story.js';
import { landmarkBounds } from './story-figure.js';
import type { Tiles } from './superpixels.js';
import { type FaceReading, loadFaceApi, readFaces } from './testing/face-api.js';
import { toRgb } from './testing/images.js';
import { portrait } from './testing/photos.js';
import { paintStory as referenceStory } from './testing/reference/story.js';
import { differingElements } from './testing/same-bits.js';

/**
 * The 9:16 story version: a second picture of the same mosaic, for stories and reels, whose
 * own controls cover its top and bottom 250 px. That it is one composition (no seam across it, the
 * face as the 4:5's) is checked on every test photo in `story-composition.test.ts`.
 */

type Rgb = Awaited<ReturnType<typeof toRgb>>;

function pixel({ data, width }: Rgb, x: number, y: number): [number, number, number] {
  const i = (y * width + x) * 3;
  return [data[i] as number, data[i + 1] as number, data[i + 2] as number];
}

function near(actual: [number, number, number], hex: string, tolerance: number): boolean {
  const expected = parseHex(hex);
  return actual.every((v, c) => Math.abs(v - (expected[c] as number)) <= tolerance);
}

describe.each(['sample6', 'sample2'])('story version of %s', (name) => {
  let detail: RenderDetails;
  let post: Rgb;
  let story: Rgb;
  let faces: FaceReading[];

  beforeAll(async () => {
    await Promise.all([loadModels(), loadFaceApi()]);
    detail = await renderDetailed(await portrait(name), { story: true, blacklabel: name === 'sample2' });
    const storyJpeg = (await render(await portrait(name), { story: true, blacklabel: name === 'sample2' })).story;
    if (!storyJpeg) throw new Error('no story version');
    [post, story] = await Promise.all([toRgb(detail.jpeg), toRgb(storyJpeg.jpeg)]);
    faces = await readFaces(story.data, story.width, story.height);
  });

  it('is a 1080×1920 sRGB JPEG under 600 KB with no metadata', async () => {
    const { story: image } = await render(await portrait(name), { story: true });
    expect(image).toMatchObject({ width: 1080, height: 1920 });
    expect(image?.jpeg.byteLength).toBeLessThanOrEqual(STORY_ARTWORK.maxBytes);
    const meta = await sharp(image?.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1080, height: 1920, space: 'srgb' });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });

  it('keeps the face inside the safe area, clear of the top and bottom 250 px', () => {
    const face = faces.sort((a, b) => b.box.width - a.box.width)[0];
    expect(face, 'face-api finds the visitor in the story').toBeDefined();
    if (!face) return;
    expect(face.box.y).toBeGreaterThan(STORY_ARTWORK.safeMargin);
    expect(face.box.y + face.box.height).toBeLessThan(STORY_ARTWORK.height - STORY_ARTWORK.safeMargin);
    expect(Math.abs(face.box.x + face.box.width / 2 - STORY_ARTWORK.width / 2)).toBeLessThan(120);
  });

  it('shows the 4:5 as painted: the face exactly, and most of its window tile for tile', () => {
    // Both are JPEGs of the same pixels over the face (the story's a step lower in quality): only the
    // encoder's error sets them apart.
    const face = landmarkBounds(mapLandmarks(detail.face.landmarks, (p) => toArtwork(detail.framing, p)));
    let sum = 0;
    let count = 0;
    for (let y = Math.ceil(face.top); y < face.bottom; y += 3) {
      for (let x = Math.ceil(face.left); x < face.right; x += 3) {
        const a = pixel(post, x, y);
        const b = pixel(story, x, y + STORY_LAYOUT.offset);
        sum += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
        count += 3;
      }
    }
    expect(sum / count).toBeLessThan(6);
    // Before encoding, the story repeats the 4:5's own pixels wherever it keeps its tiles: all but
    // the rows its window cut and the figure beyond the curve it ends on.
    let same = 0;
    let total = 0;
    for (let y = POST_WINDOW.top; y < POST_WINDOW.bottom; y++) {
      for (let x = POST_WINDOW.left; x < POST_WINDOW.right; x++) {
        const i = (y * LAYOUT.width + x) * 3;
        const j = ((y + STORY_LAYOUT.offset) * STORY_LAYOUT.width + x) * 3;
        total++;
        if (
          detail.painted[i] === detail.storyPainted[j] &&
          detail.painted[i + 1] === detail.storyPainted[j + 1] &&
          detail.painted[i + 2] === detail.storyPainted[j + 2]
        ) {
          same++;
        }
      }
    }
    expect(same / total).toBeGreaterThan(0.8);
  });

  it('wears the campaign frame all round, with the wordmark on a plaque clear of the top and bottom 250 px', async () => {
    const variant = name === 'sample2' ? 'blacklabel' : 'standard';
    const { frame, wordmark } = DEFAULT_CAMPAIGN.art[variant];
    for (const [x, y] of [
      [10, 10],
      [1070, 960],
      [10, 1910],
      [540, 1912],
    ] as const) {
      expect(near(pixel(story, x, y), frame, 12), `frame colour at ${x},${y}`).toBe(true);
    }
    const { plaque } = await frameOverlay(DEFAULT_ART, variant, 'story');
    if (!plaque) throw new Error('the story has no plaque');
    expect(plaque.top).toBeGreaterThan(STORY_ARTWORK.safeMargin);
    expect(plaque.top + plaque.height).toBeLessThanOrEqual(STORY_ARTWORK.height - STORY_ARTWORK.safeMargin);
    // An object in the mosaic, not a band across it.
    expect(plaque.width).toBeLessThan(0.45 * (LAYOUT.width - 2 * LAYOUT.border));
    expect(Math.abs(plaque.left + plaque.width / 2 - STORY_ARTWORK.width / 2)).toBeLessThanOrEqual(1);
    // The plaque in the frame's colour, and the wordmark on it.
    const middle = plaque.top + Math.round(plaque.height / 2);
    let ground = 0;
    let ink = 0;
    for (let y = plaque.top + 8; y < plaque.top + plaque.height - 8; y++) {
      for (let x = plaque.left + plaque.width / 4; x < plaque.left + (plaque.width * 3) / 4; x++) {
        const p = pixel(story, Math.round(x), y);
        if (near(p, frame, 16)) ground++;
        if (near(p, wordmark, 60)) ink++;
      }
    }
    expect(near(pixel(story, plaque.left + Math.round(plaque.width / 2), plaque.top + 3), frame, 16)).toBe(true);
    expect(ground).toBeGreaterThan(ink);
    expect(ink, `wordmark ink around row ${middle}`).toBeGreaterThan(400);
  });

  it('lays the pattern above and below the 4:5 in the campaign pattern colours', async () => {
    const variant = name === 'sample2' ? 'blacklabel' : 'standard';
    const palette = DEFAULT_CAMPAIGN.art[variant].pattern;
    const grout = DEFAULT_CAMPAIGN.art[variant].grout;
    const { plaque } = await frameOverlay(DEFAULT_ART, variant, 'story');
    const onPlaque = (x: number, y: number) =>
      plaque !== undefined &&
      x >= plaque.left - 4 &&
      x < plaque.left + plaque.width + 4 &&
      y >= plaque.top - 4 &&
      y < plaque.top + plaque.height + 4;
    let inPalette = 0;
    let total = 0;
    for (const [top, bottom] of [
      [40, STORY_LAYOUT.offset - 10],
      [STORY_LAYOUT.offset + LAYOUT.height + 10, STORY_LAYOUT.height - 40],
    ] as const) {
      for (let y = top; y < bottom; y += 5) {
        for (let x = 40; x < 1040; x += 5) {
          if (onPlaque(x, y)) continue;
          total++;
          const p = pixel(story, x, y);
          // Tiles carry ±18 % light, so each is matched loosely to its palette colour or the grout.
          if ([...palette, grout].some((hex) => near(p, hex, 60))) inPalette++;
        }
      }
    }
    expect(inPalette / total).toBeGreaterThan(0.9);
  });
});

describe.each(['sample1', 'sample3'])('what the story of %s hands on', (name) => {
  let tiles: Tiles;
  let painted: Painted;
  let story: PaintedStory;
  let centre: { x: number; y: number };
  let framed: Framed;

  beforeAll(async () => {
    await loadModels();
    const decoded = await decode(await portrait(name));
    framed = await frame(decoded, await findFace(decoded));
    const random = createRandom(1);
    tiles = await tessellate(framed, await segment(framed), random);
    painted = await paint(tiles, framed, DEFAULT_ART, 'standard', random);
    story = await storyOf(framed, painted, tiles, DEFAULT_ART, 'standard', random);
    centre = framed.framing.target;
  });

  it('labels every pixel of its window with a tile, but none beyond it or under the plaque', () => {
    const { width, height } = STORY_LAYOUT;
    const plaque = story.frame.plaque;
    if (!plaque) throw new Error('the story has no plaque');
    const underPlaque = (x: number, y: number) =>
      x >= plaque.left &&
      x < plaque.left + plaque.width &&
      y >= plaque.top &&
      y < plaque.top + plaque.height &&
      (plaque.rgba[((y - plaque.top) * plaque.width + x - plaque.left) * 4 + 3] as number) >= 128;
    let wrong = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const label = story.labels[y * width + x] as number;
        const inside =
          x >= LAYOUT.border && x < width - LAYOUT.border && y >= LAYOUT.border && y < height - LAYOUT.border;
        const expected = inside && !underPlaque(x, y);
        if (expected !== (label !== NO_TILE) || (label !== NO_TILE && label >= story.look.count)) wrong++;
      }
    }
    expect(wrong).toBe(0);
  });

  it("keeps the 4:5's tiles whole under their own index, and numbers its own stones ring by ring", () => {
    const { width, offset } = STORY_LAYOUT;
    const kept = new Uint8Array(tiles.count);
    for (const label of story.labels) if (label < tiles.count) kept[label] = 1;
    let moved = 0;
    for (let y = POST_WINDOW.top; y < POST_WINDOW.bottom; y++) {
      for (let x = POST_WINDOW.left; x < POST_WINDOW.right; x++) {
        const own = tiles.labels[y * LAYOUT.width + x] as number;
        const shown = story.labels[(y + offset) * width + x] as number;
        // A kept tile has all its pixels, and no other pixel is the 4:5's.
        if ((kept[own] === 1) !== (shown === own) || (shown < tiles.count && shown !== own)) moved++;
      }
    }
    expect(moved).toBe(0);
    expect(kept.reduce((sum, k) => sum + k, 0)).toBeGreaterThan(tiles.count * 0.8);
    const ring = (t: number) =>
      Math.round(
        Math.hypot((story.look.cx[t] as number) - centre.x, (story.look.cy[t] as number) - centre.y) / 34 - 0.75,
      );
    let outOfOrder = 0;
    for (let t = tiles.count + 1; t < story.look.count; t++) if (ring(t) < ring(t - 1)) outOfOrder++;
    expect(story.look.count).toBeGreaterThan(tiles.count + 300);
    expect(outOfOrder).toBe(0);
  });

  it("gives each tile its palette colour's RGB", () => {
    const { look } = story;
    let off = 0;
    for (let t = 0; t < look.count; t++) {
      const palette = look.glass[t] === 1 ? painted.style.portrait : painted.style.pattern;
      const c = look.colours[t] as number;
      for (let k = 0; k < 3; k++) if (look.rgb[t * 3 + k] !== palette.rgb[c * 3 + k]) off++;
    }
    expect(off).toBe(0);
  });

  it('ends the figure on a curve, lowest in the middle, rather than a straight cut', () => {
    const { width } = STORY_LAYOUT;
    // The lowest row of the visitor's tiles in each column of the middle half and near the sides.
    const lowest = (x: number) => {
      for (let y = STORY_LAYOUT.height - LAYOUT.border - 1; y >= LAYOUT.border; y--) {
        const label = story.labels[y * width + x] as number;
        if (label < tiles.count && (tiles.person[label] as number) >= 0.5) return y;
      }
      return -1;
    };
    const middle = lowest(width / 2);
    const sides = [lowest(200), lowest(width - 200)].filter((y) => y >= 0);
    expect(middle).toBeGreaterThan(0);
    for (const side of sides) expect(middle - side, 'the middle lower than the sides').toBeGreaterThan(60);
    // Nowhere does it reach the 4:5 window's bottom, where the 4:5 cuts it straight.
    expect(middle).toBeLessThan(POST_WINDOW.bottom + STORY_LAYOUT.offset - 20);
  });

  // Last: it paints the story anew over the scratch arrays the tests above read.
  it.each([1, 2])('labels and paints as the JavaScript it replaced, seed %i', async (seed) => {
    const frameOf = await frameOverlay(DEFAULT_ART, 'standard', 'story');
    const face = landmarkBounds(framed.landmarks);
    const input = (random: () => number) => ({
      tiles,
      look: painted.look,
      painted: painted.rgb,
      style: painted.style,
      centre,
      face,
      frame: frameOf,
      random,
    });
    const want = referenceStory(input(createRandom(seed)));
    const wantLabels = want.labels.slice();
    const wantRgb = want.rgb.slice();
    const got = paintStory(input(createRandom(seed)));
    expect(got.look.count).toBe(want.look.count);
    expect(differingElements(got.labels, wantLabels)).toBe(0);
    expect(differingElements(got.rgb, wantRgb)).toBe(0);
    expect(differingElements(got.look.colours, want.look.colours)).toBe(0);
    expect(differingElements(got.look.rgb, want.look.rgb)).toBe(0);
  });
});

describe('story option', () => {
  beforeAll(() => loadModels());

  it('leaves the 4:5 exactly as without it, and is left out unless asked for', async () => {
    const photo = await portrait('sample1');
    const alone = await render(photo, { seed: 3 });
    const both = await render(photo, { seed: 3, story: true });
    expect(alone.story).toBeUndefined();
    expect(both.jpeg.equals(alone.jpeg)).toBe(true);
    expect(both.timings.story).toBeGreaterThan(0);
  });

  it('explains a bad story option the way sharp does', async () => {
    await expect(render(await portrait('sample1'), { story: 'yes' as unknown as boolean })).rejects.toThrow(
      'Expected a boolean for story but received yes',
    );
  });
});
