import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/** Photos for API tests, made from face-api's demo pictures (a real face) and sharp. */

let face: Promise<Buffer> | undefined;

/** One woman looking into the lens, cropped from a demo photo with several faces. */
export function facePhoto(): Promise<Buffer> {
  face ??= (async () => {
    const require = createRequire(import.meta.url);
    const faceApi = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
    return sharp(path.join(faceApi, 'demo', 'sample6.jpg'))
      .extract({ left: 100, top: 230, width: 420, height: 560 })
      .resize(480, 640)
      .jpeg({ quality: 90 })
      .toBuffer();
  })();
  return face;
}

/** A photo with EXIF data (camera make, orientation) that must not reach the artwork. */
export async function facePhotoWithExif(): Promise<Buffer> {
  return sharp(await facePhoto())
    .withMetadata({ orientation: 1, exif: { IFD0: { Make: 'TestCam', Model: 'Selfie 1', Copyright: 'private' } } })
    .jpeg()
    .toBuffer();
}

/** A grey picture without any face: the engine refuses it. */
export function facelessPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 800, channels: 3, background: { r: 128, g: 140, b: 150 } } })
    .jpeg()
    .toBuffer();
}

/** The first half of a real JPEG, as a connection cut short would leave it. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await facePhoto();
  return full.subarray(0, Math.floor(full.length / 2));
}

/** 12 MB: JPEG magic bytes followed by filler, bigger than the 10 MB limit. */
export function twelveMegabytes(): Buffer {
  const bytes = Buffer.alloc(12 * 1024 * 1024, 0x55);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}

/** A 100-megapixel PNG that compresses to a few hundred kilobytes: a decompression bomb. */
export function hundredMegapixelPng(): Promise<Buffer> {
  return sharp({
    create: { width: 10_000, height: 10_000, channels: 3, background: '#808080' },
    limitInputPixels: false,
  })
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
}

export const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle r="40"/></svg>',
);

export const TEXT_AS_JPEG = Buffer.from('This is a text file, not a photo, whatever its name says.\n');
