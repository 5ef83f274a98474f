import { readFile } from 'node:fs/promises';
import sharp, { type Region } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModels, MosaicRefusal, render } from './index.js';
import { renderDetailed } from './render.js';
import { faceless } from './testing/images.js';
import { portrait } from './testing/photos.js';

async function refusalOf(input: Uint8Array, options = {}): Promise<string> {
  try {
    await render(input, options);
  } catch (error) {
    if (error instanceof MosaicRefusal) return error.code;
    throw error;
  }
  throw new Error('the engine accepted the photo');
}

describe('render', () => {
  let photo: Buffer;
  beforeAll(async () => {
    await loadModels();
    photo = await portrait('sample1');
  });

  it('makes a 1080×1350 sRGB JPEG under 600 KB with no metadata from the upload', async () => {
    const tagged = await sharp(photo)
      .withExif({ IFD0: { Copyright: 'secret-owner', Artist: 'secret-artist' } })
      .jpeg()
      .toBuffer();
    const result = await render(tagged);
    expect(result.width).toBe(1080);
    expect(result.height).toBe(1350);
    expect(result.jpeg.byteLength).toBeLessThanOrEqual(600 * 1024);
    const meta = await sharp(result.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1080, height: 1350, space: 'srgb' });
    expect(meta.exif).toBeUndefined();
    expect(result.jpeg.includes('secret-owner')).toBe(false);
    expect(result.tiles).toBeGreaterThanOrEqual(2000);
    expect(result.tiles).toBeLessThanOrEqual(8000);
    for (const stage of ['decode', 'detect', 'frame', 'segment', 'tessellate', 'paint', 'brand', 'encode', 'total']) {
      expect(result.timings[stage]).toBeGreaterThan(0);
    }
  });

  it('applies EXIF orientation: a photo stored sideways is framed like the upright one', async () => {
    const upright = await renderDetailed(photo);
    // Stored rotated 90° clockwise with orientation 8 ("rotate 270° to view"), as phones do.
    const sideways = await sharp(photo).rotate(90).withMetadata({ orientation: 8 }).jpeg().toBuffer();
    const turned = await renderDetailed(sideways);
    const angle = (r: typeof upright) =>
      Math.atan2(r.face.rightEye.y - r.face.leftEye.y, r.face.rightEye.x - r.face.leftEye.x);
    expect(Math.abs(angle(turned) - angle(upright))).toBeLessThan(0.05);
    expect(turned.face.width).toBeCloseTo(upright.face.width, -1);
  });

  it('is deterministic for a seed and varies with it', async () => {
    const a = await render(photo, { seed: 7 });
    const b = await render(photo, { seed: 7 });
    const c = await render(photo, { seed: 8 });
    expect(a.jpeg.equals(b.jpeg)).toBe(true);
    expect(a.jpeg.equals(c.jpeg)).toBe(false);
  });

  it('reads PNG and WebP uploads as well as JPEG', async () => {
    for (const format of ['png', 'webp'] as const) {
      const result = await render(await sharp(photo).toFormat(format).toBuffer());
      expect(result.width).toBe(1080);
    }
  });

  it('reads an iPhone-style HEIC photo', async () => {
    // A 480-px HEVC-coded HEIC of a test portrait, made once with libheif's heif-enc (9 KB).
    const heic = await readFile(new URL('./testing/fixtures/portrait.heic', import.meta.url));
    expect(heic.subarray(4, 12).toString('latin1')).toBe('ftypheic');
    const result = await renderDetailed(heic);
    expect(result.width).toBe(1080);
    expect(result.face.width).toBeGreaterThan(100);
  });

  it('switches to the dark black label frame and background', async () => {
    const standard = await renderDetailed(photo);
    const dark = await renderDetailed(photo, { blacklabel: true });
    const meanOf = async (jpeg: Buffer, region: Region) => {
      const pixels = await sharp(jpeg).extract(region).raw().toBuffer();
      return pixels.reduce((sum, v) => sum + v, 0) / pixels.byteLength;
    };
    const band = { left: 0, top: 1350 - 90, width: 1080, height: 90 };
    const corner = { left: 40, top: 40, width: 120, height: 120 };
    expect(await meanOf(standard.jpeg, band)).toBeGreaterThan(200);
    expect(await meanOf(dark.jpeg, band)).toBeLessThan(60);
    expect(await meanOf(dark.jpeg, corner)).toBeLessThan((await meanOf(standard.jpeg, corner)) - 40);
  });

  it('refuses unreadable input with a refusal, never a crash', async () => {
    expect(await refusalOf(new Uint8Array(0))).toBe('unreadable_image');
    expect(await refusalOf(new TextEncoder().encode('definitely not an image'))).toBe('unreadable_image');
    const truncated = photo.subarray(0, photo.byteLength >> 1);
    expect(await refusalOf(truncated)).toBe('unreadable_image');
    const fakeHeic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    expect(await refusalOf(fakeHeic)).toBe('unreadable_image');
  });

  it('refuses photos without a face: a gradient, noise, an object and an animal', async () => {
    for (const kind of ['gradient', 'noise', 'object', 'animal'] as const) {
      expect(await refusalOf(await faceless(kind)), kind).toBe('no_face');
    }
  });

  it('refuses a group photo with no dominant face', async () => {
    const group = await sharp(photo).resize(400).toBuffer();
    const twins = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#808080' } })
      .composite([
        { input: group, left: 20, top: 100 },
        { input: group, left: 480, top: 100 },
      ])
      .jpeg()
      .toBuffer();
    expect(await refusalOf(twins)).toBe('multiple_faces');
  });

  it('refuses a face too small to portray and a photo too dark to see', async () => {
    const tiny = await sharp(photo).resize(220).toBuffer();
    const far = await sharp({ create: { width: 1200, height: 1500, channels: 3, background: '#8899aa' } })
      .composite([{ input: tiny, left: 500, top: 400 }])
      .jpeg()
      .toBuffer();
    expect(await refusalOf(far)).toBe('face_too_small');
    const dark = await sharp(photo).linear(0.12, 0).jpeg().toBuffer();
    expect(await refusalOf(dark)).toBe('too_dark');
  });

  it('explains bad options the way sharp does', async () => {
    await expect(render(photo, { seed: 1.5 })).rejects.toThrow('Expected an integer for seed but received 1.5');
    await expect(render(photo, { blacklabel: 'yes' as unknown as boolean })).rejects.toThrow(
      'Expected a boolean for blacklabel but received yes',
    );
  });
});
