import type { Detect, Frame } from './detector';
import type { Observation } from './observation';

export type GuideRequest = { type: 'load' } | { type: 'frame'; id: number; frame: Frame };
export type GuideReply =
  | { type: 'ready' }
  | { type: 'observation'; id: number; observation: Observation }
  | { type: 'failed'; id?: number; message: string };

export interface FaceDetector {
  detect: Detect;
  /** Whether the detector runs in a worker (off the page's thread). */
  offThread: boolean;
  close(): void;
}

/** Frames go to a worker as ImageBitmaps (transferred, not copied); its canvas needs OffscreenCanvas. */
function workersCanDetect(): boolean {
  return (
    typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined'
  );
}

function openWorker(): Promise<FaceDetector> {
  const worker = new Worker(new URL('./detector.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (o: Observation) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      worker.terminate();
      reject(new Error(message));
    };
    worker.onerror = (event) => fail(event.message || 'The face guide worker failed to start');
    worker.onmessage = ({ data }: MessageEvent<GuideReply>) => {
      if (data.type === 'ready') {
        // A worker that dies later fails the frames it holds, so the guide gives up instead of waiting.
        worker.onerror = (event) => {
          for (const frame of pending.values())
            frame.reject(new Error(event.message || 'The face guide worker failed'));
          pending.clear();
        };
        resolve({
          offThread: true,
          close: () => worker.terminate(),
          detect: (frame) =>
            new Promise((resolveFrame, rejectFrame) => {
              const id = nextId++;
              pending.set(id, { resolve: resolveFrame, reject: rejectFrame });
              worker.postMessage({ type: 'frame', id, frame } satisfies GuideRequest, [frame.bitmap]);
            }),
        });
      } else if (data.type === 'observation') {
        pending.get(data.id)?.resolve(data.observation);
        pending.delete(data.id);
      } else if (data.id === undefined) fail(data.message);
      else {
        pending.get(data.id)?.reject(new Error(data.message));
        pending.delete(data.id);
      }
    };
    worker.postMessage({ type: 'load' } satisfies GuideRequest);
  });
}

async function openOnPage(): Promise<FaceDetector> {
  const { loadDetector } = await import('./detector');
  return { detect: await loadDetector(), offThread: false, close: () => undefined };
}

/**
 * The face guide's detector, off the main thread where the browser allows it, on the page otherwise.
 * Rejects when neither loads: the photo screen then keeps its plain circle.
 */
export async function openFaceDetector(): Promise<FaceDetector> {
  if (workersCanDetect()) {
    try {
      return await openWorker();
    } catch {
      // A browser whose worker cannot run the detector may still run it on the page.
    }
  }
  return openOnPage();
}
