import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import heicDecode from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import { MosaicRefusal } from './refusal.js';

/** An upright sRGB photo as interleaved 8-bit RGB. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Working resolution: the web app uploads at most this long side, so bigger photos gain nothing. */
const MAX_SIDE = UPLOAD_LIMITS.clientMaxSide;
const limitInputPixels = UPLOAD_LIMITS.maxPixels;

/**
 * Decodes any accepted upload (JPEG, PNG, WebP, HEIC) into an upright RGB image no larger than
 * the working resolution. EXIF orientation is applied and every piece of metadata is dropped.
 */
export async function decodePhoto(input: Uint8Array): Promise<RgbImage> {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError(`Expected a Buffer or Uint8Array for input but received ${typeof input}`);
  }
  if (input.byteLength === 0) throw new MosaicRefusal('unreadable_image', 'empty file');
  if (isHeif(input)) return decodeHeif(input);
  try {
    return await toRgb(sharp(input, { limitInputPixels, failOn: 'error' }).rotate());
  } catch (error) {
    throw new MosaicRefusal('unreadable_image', errorText(error));
  }
}

async function toRgb(pipeline: Sharp): Promise<RgbImage> {
  const { data, info } = await pipeline
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

/** HEIC/HEIF brands in the ISO-BMFF `ftyp` box; sharp's bundled libheif reads AVIF but not HEVC. */
function isHeif(input: Uint8Array): boolean {
  if (input.byteLength < 12) return false;
  const box = String.fromCharCode(...input.subarray(4, 12));
  return /^ftyp(heic|heix|hevc|hevx|mif1|msf1|heim|heis)$/.test(box);
}

async function decodeHeif(input: Uint8Array): Promise<RgbImage> {
  let images: Awaited<ReturnType<typeof heicDecode.all>> | undefined;
  try {
    images = await heicDecode.all({ buffer: input });
    const first = images[0];
    if (!first) throw new Error('no image in HEIF container');
    if (first.width * first.height > limitInputPixels) {
      throw new Error(`${first.width}×${first.height} exceeds the pixel limit`);
    }
    const { data, width, height } = await first.decode();
    return await toRgb(sharp(data, { raw: { width, height, channels: 4 }, limitInputPixels }));
  } catch (error) {
    throw new MosaicRefusal('unreadable_image', `HEIC: ${errorText(error)}`);
  } finally {
    images?.dispose();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
