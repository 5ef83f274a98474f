import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));
const cacheDir = resolve(here, '../.cache');

/** A real face for the fake camera: one woman looking into the lens, cropped from face-api's demo photos. */
function sourcePhoto(): string {
  const require = createRequire(import.meta.url);
  const faceApi = dirname(require.resolve('@vladmandic/face-api/package.json'));
  return join(faceApi, 'demo', 'sample6.jpg');
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
  const out = join(cacheDir, 'face.mjpeg');
  if (existsSync(out)) return out;
  const photo = await facePhoto();
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
