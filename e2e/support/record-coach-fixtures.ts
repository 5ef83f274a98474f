/**
 * Records what the face guide's detector sees in a few camera pictures, as JSON fixtures for the
 * coaching unit tests (apps/web/src/features/camera/coach/fixtures). It runs the build's own detector
 * chunk in Chromium, from the built app on a local server:
 *   npm run build && npx tsx e2e/support/record-coach-fixtures.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.js';
import { type CoachScene, coachPhoto } from './fixtures.js';
import { startServer } from './server-process.js';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'apps/web/src/features/camera/coach/fixtures');
const manifest = JSON.parse(readFileSync(join(root, 'apps/web/dist/.vite/manifest.json'), 'utf8'));
const detectorChunk = `/${manifest['src/features/camera/coach/detector.ts'].file}`;

/** The e2e's scenes, and two more the guide must tell apart: a face too near, and one off to the side. */
async function pictures(): Promise<Record<string, Buffer>> {
  const scenes: CoachScene[] = ['good', 'small', 'dark', 'two'];
  const all: Record<string, Buffer> = {};
  for (const scene of scenes) all[scene] = readFileSync(await coachPhoto(scene));
  const good = all.good as Buffer;
  all.near = await sharp(good).extract({ left: 90, top: 110, width: 300, height: 400 }).resize(480, 640).toBuffer();
  all.aside = await sharp(good)
    .extract({ left: 80, top: 0, width: 400, height: 560 })
    .extend({ left: 0, right: 80, top: 80, bottom: 0, background: { r: 196, g: 190, b: 180 } })
    .toBuffer();
  return all;
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  mkdirSync(out, { recursive: true });
  for (const [name, jpeg] of Object.entries(await pictures())) {
    const observation = await page.evaluate(
      async ({ chunk, bytes }) => {
        const { loadDetector } = await import(chunk);
        const detect = await loadDetector();
        const blob = new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
        const bitmap = await createImageBitmap(blob);
        const photoLongSide = Math.max(bitmap.width, bitmap.height);
        return detect({ bitmap, photoLongSide });
      },
      { chunk: detectorChunk, bytes: [...jpeg] },
    );
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify(observation, null, 2)}\n`);
    console.log(name, JSON.stringify(observation));
  }
} finally {
  await browser.close();
  await server.stop();
}
