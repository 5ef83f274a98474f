import type { LayingPlan } from '@selfie-mosaic/contract';
import type { ClipCodec } from './clip-codecs';

/*
 * The story clip's lazy entry: this module, the encoder (mediabunny) and the painter load only when the
 * visitor asks for the clip. The frames are drawn and encoded in a module worker where the browser
 * allows it, so the page stays responsive; otherwise on the page, pausing between frames.
 */

export type ClipRequest = { type: 'make'; plan: LayingPlan; story: Blob; codec: ClipCodec };
/** The first progress means the worker draws and encodes: a failure before it lets the page try instead. */
export type ClipReply =
  | { type: 'progress'; done: number }
  | { type: 'done'; clip: Blob }
  | { type: 'failed'; message: string };

export interface MakeClipOptions {
  codec: ClipCodec;
  /** The share of the clip made so far, 0–1. */
  onProgress?: (done: number) => void;
  signal?: AbortSignal;
}

/**
 * The performance measure each made clip leaves, for a benchmark to find: from the call to the file, with
 * its size, type and whether a worker made it in `detail`.
 */
export const CLIP_MEASURE = 'story-clip';

/** Makes the story clip from the laying plan and the story picture (its JPEG): a video/mp4 or video/webm Blob. */
export async function makeClip(plan: LayingPlan, storyJpeg: Blob, options: MakeClipOptions): Promise<Blob> {
  const start = performance.now();
  const made = workersCanEncode() ? await inWorker(plan, storyJpeg, options) : { started: false as const };
  // A worker without WebCodecs or a 2D OffscreenCanvas refuses before its first frame; the page may still encode.
  const clip = made.started ? made.clip : await onPage(plan, storyJpeg, options);
  performance.measure(CLIP_MEASURE, {
    start,
    detail: { bytes: clip.size, type: clip.type, offThread: made.started },
  });
  return clip;
}

function workersCanEncode(): boolean {
  return (
    typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined'
  );
}

type WorkerOutcome = { started: true; clip: Blob } | { started: false };

function inWorker(
  plan: LayingPlan,
  story: Blob,
  { codec, onProgress, signal }: MakeClipOptions,
): Promise<WorkerOutcome> {
  const worker = new Worker(new URL('./clip.worker.ts', import.meta.url), { type: 'module' });
  let started = false;
  return new Promise<WorkerOutcome>((resolve, reject) => {
    const fail = (message: string) => (started ? reject(new Error(message)) : resolve({ started: false }));
    const abort = () => reject(signal?.reason ?? new DOMException('The clip was abandoned', 'AbortError'));
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    worker.onerror = (event) => fail(event.message || 'the clip worker failed');
    worker.onmessage = ({ data }: MessageEvent<ClipReply>) => {
      if (data.type === 'progress') {
        started = true;
        onProgress?.(data.done);
      } else if (data.type === 'done') resolve({ started: true, clip: data.clip });
      else fail(data.message);
    };
    worker.postMessage({ type: 'make', plan, story, codec } satisfies ClipRequest);
  }).finally(() => worker.terminate());
}

async function onPage(plan: LayingPlan, story: Blob, { codec, onProgress, signal }: MakeClipOptions): Promise<Blob> {
  const [{ encodeClip }, picture] = await Promise.all([import('./encode-clip'), decodePicture(story)]);
  try {
    return await encodeClip(plan, picture, { codec, onProgress, signal, pause: nextTask });
  } finally {
    if ('close' in picture) picture.close();
  }
}

async function decodePicture(jpeg: Blob): Promise<ImageBitmap | HTMLImageElement> {
  if (typeof createImageBitmap === 'function') return createImageBitmap(jpeg);
  const image = new Image();
  image.src = URL.createObjectURL(jpeg);
  try {
    await image.decode();
    return image;
  } finally {
    URL.revokeObjectURL(image.src);
  }
}

/** Lets the page paint and answer taps between two frames. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
