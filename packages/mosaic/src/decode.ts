import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import heicDecode from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import { check } from './checks.js';
import { MosaicRefusal } from './refusal.js';

/** An upright sRGB photo as interleaved 8-bit RGB. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * An opened upload: its upright size, and decoding at any size up to the working resolution.
 * A JPEG is decoded again, just as large as the framing needs, when the detector's copy has too few
 * pixels; sharp decodes a JPEG straight to a smaller size only for reductions of 3× or more, so below
 * that each decode reads the whole picture and resizes it.
 */
export interface Photo {
  width: number;
  height: number;
  at(maxSide: number): Promise<RgbImage>;
}

/** Working resolution: the web app uploads at most this long side, so bigger photos gain nothing. */
export const MAX_SIDE = UPLOAD_LIMITS.clientMaxSide;
const limitInputPixels = UPLOAD_LIMITS.maxPixels;

/**
 * Opens any accepted upload (JPEG, PNG, WebP, HEIC). EXIF orientation is applied and every piece
 * of metadata is dropped. Anything unreadable becomes an `unreadable_image` refusal.
 */
export async function openPhoto(input: Uint8Array): Promise<Photo> {
  check(input instanceof Uint8Array, 'input', 'a Buffer or Uint8Array', input);
  if (input.byteLength === 0) throw new MosaicRefusal('unreadable_image', 'empty file');
  if (isHeif(input)) return openHeif(input);
  let width: number;
  let height: number;
  let format: string | undefined;
  try {
    const meta = await sharp(input, { limitInputPixels }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    // Orientations 5–8 turn the picture a quarter.
    const quarter = (meta.orientation ?? 1) >= 5;
    width = quarter ? meta.height : meta.width;
    height = quarter ? meta.width : meta.height;
    format = meta.format;
  } catch (error) {
    throw new MosaicRefusal('unreadable_image', errorText(error));
  }
  const decode = async (maxSide: number) => {
    try {
      return await toRgb(sharp(input, { limitInputPixels, failOn: 'error' }).rotate(), maxSide);
    } catch (error) {
      throw new MosaicRefusal('unreadable_image', errorText(error));
    }
  };
  const size = scaledToFit(width, height, MAX_SIDE);
  // Only JPEG decodes cheaply at a reduced size; other formats are decoded once and resized.
  return format === 'jpeg' ? { ...size, at: decode } : keepDecoded(await decode(MAX_SIDE));
}

/** A photo decoded once at the working resolution; smaller sizes are resized from it. */
function keepDecoded(full: RgbImage): Photo {
  const at = async (maxSide: number) =>
    maxSide >= Math.max(full.width, full.height)
      ? full
      : toRgb(
          sharp(full.data, { raw: { width: full.width, height: full.height, channels: 3 }, limitInputPixels }),
          maxSide,
        );
  return { width: full.width, height: full.height, at };
}

function scaledToFit(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

async function toRgb(pipeline: Sharp, maxSide: number): Promise<RgbImage> {
  const side = Math.min(MAX_SIDE, Math.round(maxSide));
  const { data, info } = await pipeline
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
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

async function openHeif(input: Uint8Array): Promise<Photo> {
  let images: Awaited<ReturnType<typeof heicDecode.all>> | undefined;
  let full: RgbImage;
  try {
    images = await heicDecode.all({ buffer: input });
    const first = images[0];
    if (!first) throw new Error('no image in HEIF container');
    if (first.width * first.height > limitInputPixels) {
      throw new Error(`${first.width}×${first.height} exceeds the pixel limit`);
    }
    const { data, width, height } = await first.decode();
    full = await toRgb(sharp(data, { raw: { width, height, channels: 4 }, limitInputPixels }), MAX_SIDE);
  } catch (error) {
    throw new MosaicRefusal('unreadable_image', `HEIC: ${errorText(error)}`);
  } finally {
    images?.dispose();
  }
  // HEVC cannot be decoded at a reduced size either.
  return keepDecoded(full);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
