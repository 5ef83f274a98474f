import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));
const cacheDir = resolve(here, '../.cache');

/** A real face for the fake camera: one woman looking into the lens, cropped from face-api's demo photos. */
function sourcePhoto(sample = 6): string {
  const require = createRequire(import.meta.url);
  const faceApi = dirname(require.resolve('@vladmandic/face-api/package.json'));
  return join(faceApi, 'demo', `sample${sample}.jpg`);
}

export async function facePhoto(): Promise<string> {
  const out = join(cacheDir, 'face.jpg');
  if (existsSync(out)) return out;
  mkdirSync(cacheDir, { recursive: true });
  await sharp(sourcePhoto())
    .extract({ left: 100, top: 230, width: 420, height: 560 })
    .resize(480, 640)
    .jpeg({ quality: 92 })
    .toFile(out);
  return out;
}

/** An MJPEG clip Chromium plays as its camera (TESTING.md); the path must be absolute or the camera is absent. */
export async function faceVideo(): Promise<string> {
  return videoOf(await facePhoto());
}

/** What the face guide is shown in its e2e: a face that is fine, too small, too dark, and two faces. */
export type CoachScene = 'good' | 'small' | 'dark' | 'two';

/** A 480 × 640 camera picture of a coaching scene, made from face-api's demo photos. */
export async function coachPhoto(scene: CoachScene): Promise<string> {
  const out = join(cacheDir, `coach-${scene}.jpg`);
  if (existsSync(out)) return out;
  mkdirSync(cacheDir, { recursive: true });
  // The face of facePhoto(), framed the way the guide wants it: centred in the circle, about half as wide as the view.
  const face = await sharp(sourcePhoto())
    .extract({ left: 96, top: 312, width: 470, height: 627 })
    .resize(480, 640)
    .toBuffer();
  const picture =
    scene === 'good'
      ? sharp(face)
      : scene === 'small'
        ? // The same face at half the size, the visitor standing back in a plain room.
          sharp(await sharp(face).resize(240, 320).toBuffer()).extend({
            top: 160,
            bottom: 160,
            left: 120,
            right: 120,
            background: { r: 196, g: 190, b: 180 },
          })
        : scene === 'dark'
          ? sharp(face).linear(0.28, 0)
          : // Two friends cheek to cheek, their faces of much the same size.
            sharp(sourcePhoto(3)).extract({ left: 980, top: 80, width: 780, height: 1040 }).resize(480, 640);
  await picture.jpeg({ quality: 92 }).toFile(out);
  return out;
}

/** The fake camera's clip for a coaching scene. */
export async function coachVideo(scene: CoachScene): Promise<string> {
  return videoOf(await coachPhoto(scene));
}

/** A 3 s MJPEG clip of a still picture, made once and kept in the cache. */
function videoOf(photo: string): string {
  const out = photo.replace(/\.jpg$/, '.mjpeg');
  if (existsSync(out)) return out;
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-loop',
    '1',
    '-i',
    photo,
    '-vf',
    'scale=480:640,format=yuvj420p',
    '-r',
    '30',
    '-t',
    '3',
    '-q:v',
    '3',
    '-f',
    'mjpeg',
    out,
  ]);
  return out;
}
