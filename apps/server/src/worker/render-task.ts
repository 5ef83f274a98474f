import type { RefusalCode } from '@selfie-mosaic/contract';
import type { Art } from '@selfie-mosaic/mosaic';

/** What the main thread sends a render worker. */
export interface RenderTask {
  photo: Uint8Array;
  blacklabel: boolean;
  attempt: number;
}

/** What the render process hands a worker thread: the task, under its request's id. */
export interface ThreadTask extends RenderTask {
  id: number;
}

/** Worker thread → render process, through piscina's `message` event: the thread has begun task `id`. */
export interface ThreadStarted {
  started: number;
}

/** A refusal is an answer, not an error: it crosses the thread boundary as data. */
export type RenderOutcome =
  | {
      kind: 'artwork';
      jpeg: Uint8Array;
      width: number;
      height: number;
      /** The 9:16 story version of the same mosaic. */
      story: { jpeg: Uint8Array; width: number; height: number };
      /** The laying plan of both pictures (the contract's encoding), gzip-compressed. */
      plan: Uint8Array;
      tiles: number;
      timings: Record<string, number>;
    }
  | { kind: 'refused'; code: RefusalCode };

/**
 * Test hooks: real failures a worker thread makes during attempts 1…n of each job, n per fault (0: never),
 * for the retries to ride out. Each is one row of the worker's fault table.
 */
export type TestFault = 'crash' | 'hang';

export interface RenderWorkerData {
  /** How many of each job's first attempts each test fault takes. */
  faultAttempts: Record<TestFault, number>;
  /** Renders of the bundled warm-up portrait before the thread takes jobs. */
  warmUpRenders: number;
  /** The campaign's palette, pattern, frame and wordmark colours, sent once when the render process starts. */
  art: Art;
}

/** What the render process is started with (its one command-line argument, as JSON). */
export interface RenderHostOptions extends RenderWorkerData {
  threads: number;
  /** A render still running this long after its thread began it is stopped: the thread is replaced. */
  renderTimeoutMs: number;
}

/** HTTP process → render process, over the IPC channel. */
export type HostRequest = { kind: 'render'; id: number; task: RenderTask } | { kind: 'warm-up'; id: number };

/** Render process → HTTP process: the answer to request `id`, or a thread failure worth logging. */
export type HostReply =
  | { kind: 'rendered'; id: number; outcome: RenderOutcome }
  | { kind: 'warm'; id: number }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'timed-out'; id: number }
  | { kind: 'thread-failed'; message: string };
