/** A worker thread for the benchmark: loads the models, renders a few times, reports, then waits. */
import { parentPort, workerData } from 'node:worker_threads';
import { loadModels, render } from '../src/index.js';

await loadModels();
for (let i = 0; i < 3; i++) await render(workerData.photo as Uint8Array, { seed: i });
parentPort?.postMessage('rendered');
