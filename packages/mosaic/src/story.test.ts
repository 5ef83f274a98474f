import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import { STORY_ARTWORK } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHex } from './colour.js';
import { loadModels, render } from './index.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { type FaceReading, loadFaceApi, readFaces } from './testing/face-api.js';
import { toRgb } from './testing/images.js';
import { portrait } from './testing/photos.js';

/**
 * The 9:16 story version: a second picture of the same mosaic, for stories and reels, whose
 * own controls cover its top and bottom 250 px.
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

  it('shows the very same portrait as the 4:5, tile for tile', () => {
    // Both are JPEGs of the same pixels (the story's a step lower in quality): only the encoder's
    // error sets them apart.
    let sum = 0;
    let count = 0;
    for (let y = LAYOUT.border; y < LAYOUT.height - LAYOUT.band; y += 3) {
      for (let x = LAYOUT.border; x < LAYOUT.width - LAYOUT.border; x += 3) {
        const a = pixel(post, x, y);
        const b = pixel(story, x, y + STORY_LAYOUT.offset);
        sum += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
        count += 3;
      }
    }
    expect(sum / count).toBeLessThan(6);
    // And the painted pixels before encoding are identical.
    const rowBytes = LAYOUT.width * 3;
    const from = LAYOUT.border * rowBytes;
    const to = (LAYOUT.height - LAYOUT.band) * rowBytes;
    const storyFrom = (STORY_LAYOUT.offset + LAYOUT.border) * rowBytes;
    const same = Buffer.from(detail.painted.subarray(from + 28 * 3, to)).equals(
      Buffer.from(detail.storyPainted.subarray(storyFrom + 28 * 3, storyFrom + (to - from))),
    );
    expect(same).toBe(true);
  });

  it('wears the campaign frame all round, with the wordmark bar clear of the bottom 250 px', () => {
    const variant = name === 'sample2' ? 'blacklabel' : 'standard';
    const frame = DEFAULT_CAMPAIGN.art[variant].frame;
    const barTop = STORY_LAYOUT.offset + LAYOUT.height - LAYOUT.band;
    for (const [x, y] of [
      [10, 10],
      [1070, 960],
      [10, 1910],
      [540, 1912],
      [540, STORY_LAYOUT.offset + 14],
      [60, barTop + 48],
    ] as const) {
      expect(near(pixel(story, x, y), frame, 12), `frame colour at ${x},${y}`).toBe(true);
    }
    expect(barTop + LAYOUT.band).toBeLessThanOrEqual(STORY_ARTWORK.height - STORY_ARTWORK.safeMargin);
    // The wordmark: pixels in the bar's middle that are not the frame colour.
    let ink = 0;
    for (let x = 100; x < 980; x++) if (!near(pixel(story, x, barTop + 48), frame, 40)) ink++;
    expect(ink).toBeGreaterThan(40);
  });

  it('lays the pattern above and below the 4:5 in the campaign pattern colours', () => {
    const variant = name === 'sample2' ? 'blacklabel' : 'standard';
    const palette = DEFAULT_CAMPAIGN.art[variant].pattern;
    const grout = DEFAULT_CAMPAIGN.art[variant].grout;
    let inPalette = 0;
    let total = 0;
    for (const [top, bottom] of [
      [40, STORY_LAYOUT.offset - 10],
      [STORY_LAYOUT.offset + LAYOUT.height + 10, STORY_LAYOUT.height - 40],
    ] as const) {
      for (let y = top; y < bottom; y += 5) {
        for (let x = 40; x < 1040; x += 5) {
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
