import { API_ERRORS, ApiError } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { animatedPng, animatedWebp, facePhoto } from '../test/fixtures.js';
import { checkPhoto } from './photo-check.js';

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** The header of a HEIF photo as an iPhone writes it: `ftyp` brand heic and an `ispe` with the size. */
function heifHeader(width: number, height: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('heic'), Buffer.alloc(4), Buffer.from('mif1heic'));
  const ispe = Buffer.alloc(12);
  ispe.writeUInt32BE(width, 4);
  ispe.writeUInt32BE(height, 8);
  const meta = box('meta', Buffer.alloc(4), box('iprp', box('ipco', box('ispe', ispe))));
  return Buffer.concat([ftyp, meta, box('mdat', Buffer.alloc(64))]);
}

async function refusal(bytes: Buffer): Promise<ApiError> {
  const error = await checkPhoto(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('checkPhoto', () => {
  it('accepts JPEG, PNG and WebP by their content and reads their size', async () => {
    const jpeg = await facePhoto();
    expect(await checkPhoto(jpeg)).toEqual({ mime: 'image/jpeg', width: 480, height: 640 });
    expect(await checkPhoto(await sharp(jpeg).png().toBuffer())).toMatchObject({ mime: 'image/png', width: 480 });
    expect(await checkPhoto(await sharp(jpeg).webp().toBuffer())).toMatchObject({ mime: 'image/webp', height: 640 });
  });

  it('refuses truncated PNG and WebP files as incomplete', async () => {
    const jpeg = await facePhoto();
    for (const bytes of [await sharp(jpeg).png().toBuffer(), await sharp(jpeg).webp().toBuffer()]) {
      const error = await refusal(bytes.subarray(0, Math.floor(bytes.length * 0.7)));
      expect(error.statusCode).toBe(400);
      expect(error.code).toBe('truncatedPhoto');
    }
  });

  it('refuses GIF and other image types with 415', async () => {
    const gif = await sharp(await facePhoto())
      .gif()
      .toBuffer();
    expect(await refusal(gif)).toMatchObject({ statusCode: 415, code: 'unsupportedMedia' });
  });

  it('reads a HEIC photo size from its header and refuses one over 40 megapixels', async () => {
    const huge = await refusal(heifHeader(8000, 6000));
    expect(huge.statusCode).toBe(413);
    expect(huge.code).toBe('tooLarge');
    expect(huge.message).toBe(API_ERRORS.tooLarge.message);
  });

  it('accepts the header of a HEIC photo within the limits', async () => {
    expect(await checkPhoto(heifHeader(3024, 4032))).toEqual({ mime: 'image/heic', width: 3024, height: 4032 });
  });

  it('refuses a HEIC file cut short', async () => {
    const header = heifHeader(3024, 4032);
    expect((await refusal(header.subarray(0, header.length - 10))).code).toBe('truncatedPhoto');
  });

  it('refuses an animated WebP and an animated PNG, saying animation is the problem', async () => {
    for (const animation of [await animatedWebp(), await animatedPng()]) {
      const error = await refusal(animation);
      expect(error.statusCode).toBe(415);
      expect(error.code).toBe('animatedImage');
      expect(error.message).toMatch(/animated/i);
    }
  });

  it('still accepts the first frame of those animations as a still photo', async () => {
    const frame = (await sharp(await animatedWebp())
      .png()
      .toBuffer()) as Buffer;
    expect(await checkPhoto(frame)).toMatchObject({ mime: 'image/png', width: 480, height: 640 });
    // The APNG's own first frame is a plain PNG once its animation chunks are gone.
    const { data, info } = await sharp(await animatedPng())
      .raw()
      .toBuffer({ resolveWithObject: true });
    const still = await sharp(data, { raw: info }).png().toBuffer();
    expect(await checkPhoto(still)).toMatchObject({ mime: 'image/png', width: 480, height: 640 });
  });
});
