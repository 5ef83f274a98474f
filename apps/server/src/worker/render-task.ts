import type { RefusalCode } from '@selfie-mosaic/contract';
import type { Art } from '@selfie-mosaic/mosaic';

/** What the main thread sends a render worker. */
export interface RenderTask {
  photo: Uint8Array;
  blacklabel: boolean;
  attempt: number;
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
      tiles: number;
      timings: Record<string, number>;
    }
  | { kind: 'refused'; code: RefusalCode };

export interface RenderWorkerData {
  /** Test hook: exit the thread during attempts 1…n of each job, a real crash mid-job. */
  crashAttempts: number;
  /** Renders of the bundled warm-up portrait before the thread takes jobs. */
  warmUpRenders: number;
  /** The campaign's palette, pattern, frame and wordmark colours, sent once when the render process starts. */
  art: Art;
}

/** What the render process is started with (its one command-line argument, as JSON). */
export interface RenderHostOptions extends RenderWorkerData {
  threads: number;
}

/** HTTP process → render process, over the IPC channel. */
export type HostRequest = { kind: 'render'; id: number; task: RenderTask } | { kind: 'warm-up'; id: number };

/** Render process → HTTP process: the answer to request `id`, or a thread failure worth logging. */
export type HostReply =
  | { kind: 'rendered'; id: number; outcome: RenderOutcome }
  | { kind: 'warm'; id: number }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'thread-failed'; message: string };
