import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { isRefusalCode } from '@selfie-mosaic/contract';
import { loadModels, MosaicRefusal, render } from '@selfie-mosaic/mosaic';
import { Piscina } from 'piscina';
import sharp from 'sharp';
import type { RenderOutcome, RenderWorkerData, TestFault, ThreadStarted, ThreadTask } from './render-task.js';

/**
 * Runs in a worker thread: loads the engine's models once, renders the warm-up portrait, then renders
 * one photo per task.
 */
const data = (Piscina.workerData ?? {}) as Partial<RenderWorkerData>;

// One render per thread and one thread per core: libvips' own thread pool would only oversubscribe them.
sharp.concurrency(1);
/** One object for the thread's life: the engine builds its palettes and frames once per art object. */
const art = data.art;
await loadModels(art);

/** A job's render: the 4:5, its story version and their laying plan, in the campaign's art. */
function renderJob(photo: Uint8Array, blacklabel: boolean) {
  return render(photo, { blacklabel, story: true, plan: true, ...(art ? { art } : {}) });
}

/**
 * A fresh thread's first renders cost 2–3× the CPU of later ones (V8 and WASM compile the hot code as it
 * runs, tfjs sets up each network layer on first use): 750–800 ms for the first job against about 230 ms
 * from the tenth on. A few renders of a bundled portrait (480×600, the upload's 4:5) before the thread is
 * ready take that cost before any visitor waits: after three, the first job takes about 400 ms.
 */
const warmUpPhoto = new URL('../../assets/warm-up.jpg', import.meta.url);
if (data.warmUpRenders) {
  const photo = await readFile(warmUpPhoto);
  for (let i = 0; i < data.warmUpRenders; i++) {
    await renderJob(photo, i % 2 === 1);
  }
}

/** Resolves once this thread has loaded the models and made its warm-up renders (the module's top-level await): readiness. */
export function warmUp(): boolean {
  return true;
}

/** What each test fault does to the thread: the real failure, not an error that stands for it. */
const FAULTS: Record<TestFault, () => never> = {
  // The thread exits mid-job, as a native crash would end it.
  crash: () => process.exit(70),
  // A loop that never yields, as a stuck engine would: no await, so only terminating the thread ends it.
  hang: () => {
    for (;;);
  },
};

export default async function renderTask(task: ThreadTask): Promise<RenderOutcome> {
  // The render's deadline starts now, not while the task waited for a thread.
  parentPort?.postMessage({ started: task.id } satisfies ThreadStarted);
  for (const [fault, fail] of Object.entries(FAULTS)) {
    if (task.attempt <= (data.faultAttempts?.[fault as TestFault] ?? 0)) fail();
  }
  try {
    const result = await renderJob(task.photo, task.blacklabel);
    if (!result.story || !result.plan) throw new Error('the engine made no story version or laying plan');
    const bytes = (jpeg: Buffer) => new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
    const outcome: RenderOutcome = {
      kind: 'artwork',
      jpeg: bytes(result.jpeg),
      width: result.width,
      height: result.height,
      story: { jpeg: bytes(result.story.jpeg), width: result.story.width, height: result.story.height },
      // Stored and served as gzip: compressed once here, in the render's thread, never per request.
      plan: bytes(gzipSync(result.plan)),
      tiles: result.tiles,
      timings: result.timings,
    };
    return outcome;
  } catch (error) {
    if (error instanceof MosaicRefusal && isRefusalCode(error.code)) return { kind: 'refused', code: error.code };
    throw error;
  }
}
