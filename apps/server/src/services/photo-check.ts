import { ApiError, UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const ALLOWED = new Set(UPLOAD_LIMITS.mimeTypes);
/** file-type's name for a PNG with animation chunks (`acTL` before the image data). */
const ANIMATED_PNG = 'image/apng';
const HEIF_BRANDS = /^(heic|heix|heim|heis|hevc|hevx|mif1|msf1)$/;

export interface CheckedPhoto {
  mime: string;
  width: number;
  height: number;
}

/**
 * Decides from the bytes alone whether an upload is a photo the engine can take: the type is sniffed
 * (never the client's word), the file must be complete, and its pixel count is read from the header
 * with sharp's limit so a decompression bomb is refused before anything decodes it.
 */
export async function checkPhoto(bytes: Buffer): Promise<CheckedPhoto> {
  if (bytes.length === 0) throw new ApiError('emptyPhoto');
  const type = await fileTypeFromBuffer(bytes);
  // The engine would take the first frame of an animation, rarely the face the visitor meant to send.
  if (type?.mime === ANIMATED_PNG) throw new ApiError('animatedImage');
  const mime = type?.mime === 'image/heif' ? 'image/heic' : type?.mime;
  if (!mime || !ALLOWED.has(mime)) throw new ApiError('unsupportedMedia');
  if (!isComplete(bytes, mime)) throw new ApiError('truncatedPhoto');
  const { width, height, pages } = await readHeader(bytes, mime);
  if (width * height > UPLOAD_LIMITS.maxPixels) throw new ApiError('tooLarge');
  if (pages > 1) throw new ApiError('animatedImage');
  return { mime, width, height };
}

/** Size and frame count (animated WebP, HEIF sequences); sharp's PNG reader sees only an APNG's first frame. */
async function readHeader(bytes: Buffer, mime: string): Promise<{ width: number; height: number; pages: number }> {
  try {
    const metadata = await sharp(bytes, { limitInputPixels: UPLOAD_LIMITS.maxPixels }).metadata();
    if (metadata.width && metadata.height) {
      return { width: metadata.width, height: metadata.height, pages: metadata.pages ?? 1 };
    }
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new ApiError('tooLarge');
    // sharp's prebuilt libvips reads HEIF containers but may lack the HEVC codec: fall back to the header.
    if (mime !== 'image/heic') throw new ApiError('unreadablePhoto');
  }
  const size = mime === 'image/heic' ? heifImageSize(bytes) : undefined;
  if (!size) throw new ApiError('unreadablePhoto');
  return { ...size, pages: 1 };
}

/** Cheap structural checks that catch a file cut short in transit, without decoding it. */
function isComplete(bytes: Buffer, mime: string): boolean {
  switch (mime) {
    case 'image/jpeg': {
      // Entropy-coded data stuffs every 0xFF, so an end-of-image marker near the end means the scan finished.
      const tail = bytes.subarray(Math.max(0, bytes.length - 4096));
      return tail.includes(Buffer.from([0xff, 0xd9]));
    }
    case 'image/png':
      return bytes.subarray(Math.max(0, bytes.length - 64)).includes(Buffer.from('IEND'));
    case 'image/webp':
      return bytes.length >= 12 && bytes.readUInt32LE(4) + 8 <= bytes.length;
    case 'image/heic':
      return boxesFit(bytes);
    default:
      return false;
  }
}

/** ISO BMFF: the top-level boxes must exactly tile the file. */
function boxesFit(bytes: Buffer): boolean {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1 && offset + 16 <= bytes.length) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) return true;
    if (size < 8) return false;
    offset += size;
  }
  return offset === bytes.length;
}

/** The largest `ispe` (image spatial extent) of a HEIF file: the primary image, not its tiles or thumbnail. */
function heifImageSize(bytes: Buffer): { width: number; height: number } | undefined {
  const brand = bytes.subarray(8, 12).toString('latin1');
  if (!HEIF_BRANDS.test(brand)) return undefined;
  let largest: { width: number; height: number } | undefined;
  for (let at = bytes.indexOf('ispe'); at >= 0 && at + 16 <= bytes.length; at = bytes.indexOf('ispe', at + 4)) {
    const size = { width: bytes.readUInt32BE(at + 8), height: bytes.readUInt32BE(at + 12) };
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size;
  }
  return largest;
}
