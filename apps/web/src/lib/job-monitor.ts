import { isRefusalCode, type QueueStatus, type ResultResponse } from '@selfie-mosaic/contract';
import { errorCodeOf } from './api-error';
import type { ProblemCode } from './messages';
import { type FollowPhase, OVERLOADED, StreamFollower, type StreamLike, type Timers } from './stream-follower';

export type { StreamLike, Timers } from './stream-follower';
export { statusOf } from './stream-follower';

export interface MonitorDeps {
  openStream(jobId: string): StreamLike;
  fetchStatus(jobId: string): Promise<QueueStatus>;
  fetchResult(jobId: string): Promise<ResultResponse>;
  timers?: Timers;
}

/** What the monitor reports; the session controller turns these into session updates. */
export interface MonitorHandlers {
  onStatus(status: QueueStatus): void;
  /** The server said it is under heavy load (stream `error` or a 408 while polling). */
  onServerLoad(loaded: boolean): void;
  onCompleted(result: ResultResponse): void;
  /**
   * The job ended without an artwork. `code` is what the visitor reads, translated: the engine's
   * refusal (`no_face`…), `processingFailed` when the job carries none, or why the result could not
   * be fetched (`resultNotFound`, `network`…). The English `error_message` is never shown.
   */
  onFailed(code: ProblemCode): void;
}

export type MonitorPhase = FollowPhase | 'fetching-result';

function failureCode(status: QueueStatus): ProblemCode {
  return isRefusalCode(status.error_code) ? status.error_code : 'processingFailed';
}

/** A queue answer of `error` is the server's "heavy load", not a state of the job. */
const loadOrStatus = (status: QueueStatus) => (status.status === 'error' ? OVERLOADED : status);

/**
 * Follows one job (docs/product.md#job-monitoring) with the stream-then-polling follower, and once it
 * completes fetches its result. It ends after `completed` (with the result) or `failed`, or when stopped.
 */
export class JobMonitor {
  private readonly follower: StreamFollower<QueueStatus>;
  /** The monitor's own phase after the job completed: fetching its result, then done or stopped. */
  private resultPhase: 'fetching-result' | 'done' | 'stopped' | null = null;

  constructor(
    readonly jobId: string,
    private readonly deps: MonitorDeps,
    private readonly handlers: MonitorHandlers,
  ) {
    this.follower = new StreamFollower<QueueStatus>(
      {
        openStream: () => deps.openStream(jobId),
        fetchStatus: async () => loadOrStatus(await deps.fetchStatus(jobId)),
        parse: (data) => {
          const status = parseStatus(data);
          return status && loadOrStatus(status);
        },
        isFinal: (status) => status.status === 'completed' || status.status === 'failed',
      },
      {
        onStatus: (status) => this.onStatus(status),
        onServerLoad: (loaded) => handlers.onServerLoad(loaded),
      },
      deps.timers,
    );
  }

  get phase(): MonitorPhase {
    return this.resultPhase ?? this.follower.phase;
  }

  /** The delay before the next poll, in ms. */
  get pollDelay(): number {
    return this.follower.pollDelay;
  }

  get active(): boolean {
    return this.follower.active || this.phase === 'fetching-result';
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
    if (this.resultPhase === 'fetching-result') this.resultPhase = 'stopped';
  }

  private onStatus(status: QueueStatus): void {
    this.handlers.onStatus(status);
    if (status.status === 'completed') void this.fetchResult();
    else if (status.status === 'failed') this.handlers.onFailed(failureCode(status));
  }

  private async fetchResult(): Promise<void> {
    this.resultPhase = 'fetching-result';
    try {
      const result = await this.deps.fetchResult(this.jobId);
      if (this.resultPhase !== 'fetching-result') return;
      this.resultPhase = 'done';
      this.handlers.onCompleted(result);
    } catch (error) {
      if (this.resultPhase !== 'fetching-result') return;
      this.resultPhase = 'done';
      this.handlers.onFailed(errorCodeOf(error) ?? 'resultNotFound');
    }
  }
}

/** Parses one stream message; anything that is not a status object is ignored. */
export function parseStatus(data: unknown): QueueStatus | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as Partial<QueueStatus>;
    if (typeof value !== 'object' || value === null || typeof value.status !== 'string') return null;
    return {
      status: value.status,
      queue_position: typeof value.queue_position === 'number' ? value.queue_position : 0,
      error_message: typeof value.error_message === 'string' ? value.error_message : null,
      error_code: typeof value.error_code === 'string' ? value.error_code : null,
      eta_seconds: typeof value.eta_seconds === 'number' ? value.eta_seconds : null,
    };
  } catch {
    return null;
  }
}
