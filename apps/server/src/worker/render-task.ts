import type { RefusalCode } from '@selfie-mosaic/contract';

/** What the main thread sends a render worker. */
export interface RenderTask {
  photo: Uint8Array;
  blacklabel: boolean;
  attempt: number;
}

/** A refusal is an answer, not an error: it crosses the thread boundary as data. */
export type RenderOutcome =
  | { kind: 'artwork'; jpeg: Uint8Array; width: number; height: number; tiles: number; timings: Record<string, number> }
  | { kind: 'refused'; code: RefusalCode };

export interface RenderWorkerData {
  /** Test hook: exit the thread during attempts 1…n of each job, a real crash mid-job. */
  crashAttempts: number;
}
