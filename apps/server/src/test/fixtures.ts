import { createRequire } from 'node:module';
import path from 'node:path';
import { crc32 } from 'node:zlib';
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

/** Three frames of the face photo in different tints: the frames of the animations below. */
async function faceFrames(): Promise<Buffer[]> {
  const face = await facePhoto();
  return Promise.all(
    ['#ff000040', '#00ff0040', '#0000ff40'].map((tint) =>
      sharp(face)
        .composite([{ input: { create: { width: 480, height: 640, channels: 4, background: tint } } }])
        .png()
        .toBuffer(),
    ),
  );
}

/** An animated WebP (three frames, looping), as a messaging app might save a "live" selfie. */
export async function animatedWebp(): Promise<Buffer> {
  return sharp(await faceFrames(), { join: { animated: true } })
    .webp({ loop: 0, delay: 200 })
    .toBuffer();
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([uint32(data.length), typeAndData, uint32(crc32(typeAndData))]);
}

/**
 * An animated PNG (APNG) of two frames. sharp writes no APNG, so its still PNG is given the animation
 * chunks the APNG specification adds: `acTL` and `fcTL` before the image data, then an `fcTL` + `fdAT`
 * second frame. A plain PNG reader shows the first frame, which is why the server must look for them.
 */
export async function animatedPng(): Promise<Buffer> {
  const [first, second] = await faceFrames();
  const chunks = (png: Buffer) => {
    const found: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      found.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
      at += 12 + length;
    }
    return found;
  };
  const stillChunks = chunks(first as Buffer);
  const secondData = Buffer.concat(
    chunks(second as Buffer)
      .filter((chunk) => chunk.type === 'IDAT')
      .map((chunk) => chunk.data),
  );
  const frameControl = (sequence: number) => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence, 0);
    data.writeUInt32BE(480, 4);
    data.writeUInt32BE(640, 8);
    data.writeUInt16BE(1, 20); // delay 1/5 s
    data.writeUInt16BE(5, 22);
    return pngChunk('fcTL', data);
  };
  const animationControl = Buffer.alloc(8);
  animationControl.writeUInt32BE(2, 0); // frames
  animationControl.writeUInt32BE(0, 4); // loop forever
  const sequenceTwo = Buffer.alloc(4);
  sequenceTwo.writeUInt32BE(2);
  const out: Buffer[] = [(first as Buffer).subarray(0, 8)];
  let animationAdded = false;
  for (const chunk of stillChunks) {
    if (chunk.type === 'IDAT' && !animationAdded) {
      out.push(pngChunk('acTL', animationControl), frameControl(0));
      animationAdded = true;
    }
    if (chunk.type === 'IEND') out.push(frameControl(1), pngChunk('fdAT', Buffer.concat([sequenceTwo, secondData])));
    out.push(pngChunk(chunk.type, chunk.data));
  }
  return Buffer.concat(out);
}
