/**
 * The gallery's before/after pictures: the engine as it was before issue 14 ("today", kept in
 * docs/gallery/before/) beside the engine of this checkout ("new"), whole and as a close-up of the
 * eyes and mouth, each picture captioned.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { toArtwork } from '../src/framing.js';
import { LAYOUT } from '../src/layout.js';
import type { RenderDetails } from '../src/render.js';

export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Width of each picture in a side-by-side. */
const PANEL_WIDTH = 432;
const PANEL_HEIGHT = (PANEL_WIDTH * LAYOUT.height) / LAYOUT.width;
const CAPTION = 34;
const GAP = 8;
/** Close-ups are enlarged 2× pixel for pixel, so every tessera and joint shows. */
const ZOOM = 2;
const JPEG = { quality: 85, mozjpeg: true } as const;

/** The eyes, brows and mouth of the artwork's face, with a margin, in artwork pixels. */
export function eyesAndMouth(details: RenderDetails): Crop {
  const { landmarks, width } = details.face;
  const points = [
    landmarks.rightEye,
    landmarks.leftEye,
    landmarks.rightBrow,
    landmarks.leftBrow,
    landmarks.lips,
  ].flatMap((group) => {
    const out = [];
    for (let i = 0; i < group.length; i += 2) {
      out.push(toArtwork(details.framing, { x: group[i] as number, y: group[i + 1] as number }));
    }
    return out;
  });
  const faceWidth = width * details.framing.scale;
  const margin = 0.1 * faceWidth;
  const left = Math.max(LAYOUT.border, Math.floor(Math.min(...points.map((p) => p.x)) - margin));
  const top = Math.max(LAYOUT.border, Math.floor(Math.min(...points.map((p) => p.y)) - margin));
  const right = Math.min(LAYOUT.width - LAYOUT.border, Math.ceil(Math.max(...points.map((p) => p.x)) + margin));
  const bottom = Math.min(LAYOUT.height - LAYOUT.band, Math.ceil(Math.max(...points.map((p) => p.y)) + margin));
  return { left, top, width: right - left, height: bottom - top };
}

/** The crop of an artwork JPEG at its own resolution. */
export function cropOf(jpeg: Buffer, crop: Crop): Promise<Buffer> {
  return sharp(jpeg).extract(crop).jpeg({ quality: 92, mozjpeg: true }).toBuffer();
}

function caption(text: string, width: number): Buffer {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${CAPTION}">` +
      `<text x="${width / 2}" y="${CAPTION - 10}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="18" fill="#222">${escaped}</text></svg>`,
  );
}

/** Pictures of one size in a row, each with its caption above, on white. */
async function row(pictures: { image: Buffer; label: string }[], width: number, height: number): Promise<Buffer> {
  const total = pictures.length * width + (pictures.length - 1) * GAP;
  const layers = await Promise.all(
    pictures.map(async ({ image, label }, i) => {
      const left = i * (width + GAP);
      return [
        { input: caption(label, width), left, top: 0 },
        { input: image, left, top: CAPTION },
      ];
    }),
  );
  return sharp({ create: { width: total, height: height + CAPTION, channels: 3, background: '#ffffff' } })
    .composite(layers.flat())
    .jpeg(JPEG)
    .toBuffer();
}

const panel = (image: Buffer | Sharp) =>
  (Buffer.isBuffer(image) ? sharp(image) : image).resize(PANEL_WIDTH, PANEL_HEIGHT).png().toBuffer();

/** Photo | today's artwork | the new artwork. */
export async function sideBySide(photo: Sharp, today: Buffer, now: Buffer): Promise<Buffer> {
  return row(
    [
      { image: await panel(photo), label: 'framed photo' },
      { image: await panel(today), label: 'today (before issue 14)' },
      { image: await panel(now), label: 'new' },
    ],
    PANEL_WIDTH,
    PANEL_HEIGHT,
  );
}

/** Today's and the new eyes-and-mouth crop, enlarged pixel for pixel. */
export async function closeUp(today: Buffer, now: Buffer, crop: Crop): Promise<Buffer> {
  const enlarge = (image: Buffer) =>
    sharp(image)
      .resize(crop.width * ZOOM, crop.height * ZOOM, { kernel: 'nearest' })
      .png()
      .toBuffer();
  return row(
    [
      { image: await enlarge(today), label: `today, ${ZOOM}×` },
      { image: await enlarge(now), label: `new, ${ZOOM}×` },
    ],
    crop.width * ZOOM,
    crop.height * ZOOM,
  );
}

/** The before pictures' crops, by photo name, as stored beside them. */
export async function readCrops(dir: string): Promise<Record<string, Crop> | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'crops.json'), 'utf8')) as Record<string, Crop>;
  } catch {
    return undefined;
  }
}

export async function writeCrops(dir: string, crops: Record<string, Crop>): Promise<void> {
  await writeFile(join(dir, 'crops.json'), `${JSON.stringify(crops, null, 2)}\n`);
}
