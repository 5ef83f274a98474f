/**
 * Run in a fresh process by the engine benchmark: starts N worker threads that each load the
 * models and render, as the server's pool does, then prints the process's RSS in MB.
 */
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

const [count = '1', photoPath = ''] = process.argv.slice(2);
const photo = await readFile(photoPath);
// Workers do not inherit tsx's loader: each registers it before importing the TypeScript worker.
const entry = JSON.stringify(new URL('./memory-worker.ts', import.meta.url).href);
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`;
const workers = Array.from(
  { length: Number(count) },
  () => new Worker(bootstrap, { eval: true, workerData: { photo }, execArgv: ['--conditions=source'] }),
);
await Promise.all(
  workers.map((worker) => new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))),
);
console.log((process.memoryUsage().rss / 1024 / 1024).toFixed(0));
await Promise.all(workers.map((worker) => worker.terminate()));
