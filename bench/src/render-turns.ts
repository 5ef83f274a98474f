import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

/**
 * One engine, rendering on request (`before-after.ts`): loads the engine at argv[2] (a tree's
 * `packages/mosaic/src/index.ts`), warms up on the photo at argv[3], then for each message `n` renders
 * the photo n times and answers with each render's wall time (the engine's own `total`) and CPU time.
 */
interface Engine {
  loadModels(): Promise<unknown>;
  render(
    photo: Buffer,
    options: { seed: number; story: boolean },
  ): Promise<{ timings: Record<string, number>; story?: unknown }>;
}

const [enginePath, photoPath] = process.argv.slice(2);
if (!enginePath || !photoPath) throw new Error('usage: render-turns <engine index.ts> <photo.jpg>');
const engine = (await import(pathToFileURL(enginePath).href)) as Engine;
// One core per render, as in the server's worker threads (the engines share this one sharp: symlinks resolve to it).
sharp.concurrency(1);
const photo = readFileSync(photoPath);
const story = process.env.STORY === '1';
await engine.loadModels();
let seed = 0;
for (let i = 0; i < 5; i++) await engine.render(photo, { seed: seed++, story });

process.on('message', async (count: number) => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = process.cpuUsage();
    const result = await engine.render(photo, { seed: seed++, story });
    const used = process.cpuUsage(before);
    if (story && !result.story) throw new Error('the engine made no story version');
    wall.push(result.timings.total ?? Number.NaN);
    cpu.push((used.user + used.system) / 1000);
  }
  process.send?.({ wall, cpu });
});
process.send?.('ready');
