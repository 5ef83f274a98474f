import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { portrait } from './testing/photos.js';

/**
 * The server runs the engine in piscina worker threads, one per core: each thread must load its
 * own models and render on its own. This drives the built package (`npm run build` first), the
 * way the server loads it.
 */
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const workerSource = `
import { parentPort, workerData } from 'node:worker_threads';
const { loadModels, render, MosaicRefusal } = await import(workerData.entry);
await loadModels();
await loadModels();
const result = await render(workerData.photo, { seed: 3 });
let refusal = 'none';
try {
  await render(new Uint8Array([0xff, 0xd8, 0xff, 0x00]));
} catch (error) {
  refusal = error instanceof MosaicRefusal ? error.code : String(error);
}
parentPort.postMessage({ jpeg: result.jpeg, tiles: result.tiles, refusal });
`;

function inWorker(photo: Buffer): Promise<{ jpeg: Uint8Array; tiles: number; refusal: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerSource)}`), {
      workerData: { entry: new URL(`file://${entry}`).href, photo },
    });
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('in worker threads', () => {
  it('renders in two threads at once, identically, and refuses bad input with a code', async () => {
    await readFile(entry).catch(() => {
      throw new Error(`build the package first (npm run build): ${entry} is missing`);
    });
    const photo = await portrait('sample4');
    const [a, b] = await Promise.all([inWorker(photo), inWorker(photo)]);
    expect(a.tiles).toBeGreaterThanOrEqual(2000);
    expect(Buffer.from(a.jpeg).equals(Buffer.from(b.jpeg))).toBe(true);
    expect(a.refusal).toBe('unreadable_image');
  });
});
