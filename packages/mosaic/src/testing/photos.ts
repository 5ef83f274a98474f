import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/**
 * Real portraits for the quality tests: one face cropped from each of face-api's demo photos
 * (group photos, so each crop is centred on one person). Boxes are face-api's detections.
 */
const FACES = [
  { sample: 1, box: [1476, 199, 203, 241] },
  { sample: 2, box: [1447, 153, 194, 242] },
  { sample: 3, box: [585, 329, 199, 271] },
  { sample: 4, box: [664, 53, 187, 258] },
  { sample: 5, box: [787, 109, 156, 212] },
  { sample: 6, box: [1180, 305, 188, 280] },
] as const;

export const PORTRAIT_NAMES = FACES.map((f) => `sample${f.sample}`);

const require = createRequire(import.meta.url);
const demoDir = join(dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

/** A 4:5 JPEG crop around the face, like a selfie: face in the upper middle, shoulders below. */
export async function portrait(name: string): Promise<Buffer> {
  const face = FACES.find((f) => `sample${f.sample}` === name);
  if (!face) throw new Error(`unknown test portrait ${name}`);
  const path = join(demoDir, `sample${face.sample}.jpg`);
  const { width = 0, height = 0 } = await sharp(path).metadata();
  const [x, y, w, h] = face.box;
  const cropWidth = Math.min(width, Math.round(w * 2.8));
  const cropHeight = Math.min(height, Math.round(cropWidth * 1.25));
  const left = Math.max(0, Math.min(width - cropWidth, Math.round(x + w / 2 - cropWidth / 2)));
  const top = Math.max(0, Math.min(height - cropHeight, Math.round(y + h / 2 - cropHeight * 0.4)));
  return sharp(path).extract({ left, top, width: cropWidth, height: cropHeight }).jpeg({ quality: 92 }).toBuffer();
}

/**
 * A close phone selfie (480×640, chin near the bottom edge): framed at the usual face size, the
 * portrait needs more picture than the photo has, below the chin and to one side.
 */
export async function closeCrop(): Promise<Buffer> {
  return sharp(join(demoDir, 'sample6.jpg'))
    .extract({ left: 100, top: 230, width: 420, height: 560 })
    .resize(480, 640)
    .jpeg({ quality: 90 })
    .toBuffer();
}
