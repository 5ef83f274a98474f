import {
  isRefusalCode,
  nextPollDelay,
  POLL,
  type QueueStatus,
  type ResultResponse,
  STREAM_CONNECT_TIMEOUT_MS,
} from '@selfie-mosaic/contract';
import { errorCodeOf } from './api-error';
import type { ProblemCode } from './messages';

/** The part of EventSource the monitor uses, so tests can drive a fake one. */
export interface StreamLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

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

export type MonitorPhase = 'idle' | 'stream' | 'polling' | 'fetching-result' | 'done' | 'stopped';

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function failureCode(status: QueueStatus): ProblemCode {
  return isRefusalCode(status.error_code) ? status.error_code : 'processingFailed';
}

/** Reads the HTTP status of a failed request from ofetch's FetchError or anything shaped like it. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
  const status = record.status ?? record.statusCode ?? record.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Follows one job (docs/product.md#job-monitoring): an event stream first; on a stream error, an `error` (overload)
 * message or no connection within 5 s it falls back to polling with backoff. It ends after
 * `completed` (fetching the result) or `failed`, or when stopped.
 */
export class JobMonitor {
  private readonly timers: Timers;
  private stream: StreamLike | null = null;
  private connectTimer: unknown = null;
  private pollTimer: unknown = null;
  private serverLoad = false;
  phase: MonitorPhase = 'idle';
  /** The delay before the next poll, in ms. */
  pollDelay: number = POLL.initialMs;

  constructor(
    readonly jobId: string,
    private readonly deps: MonitorDeps,
    private readonly handlers: MonitorHandlers,
  ) {
    this.timers = deps.timers ?? defaultTimers;
  }

  get active(): boolean {
    return this.phase === 'stream' || this.phase === 'polling' || this.phase === 'fetching-result';
  }

  start(): void {
    if (this.phase !== 'idle') return;
    this.phase = 'stream';
    let stream: StreamLike;
    try {
      stream = this.deps.openStream(this.jobId);
    } catch {
      this.startPolling();
      return;
    }
    this.stream = stream;
    this.connectTimer = this.timers.setTimeout(() => {
      this.connectTimer = null;
      this.closeStream();
      this.startPolling();
    }, STREAM_CONNECT_TIMEOUT_MS);
    stream.onopen = () => this.clearConnectTimer();
    stream.onmessage = (event) => this.onStreamMessage(event);
    stream.onerror = () => {
      if (this.phase !== 'stream') return;
      this.closeStream();
      this.startPolling();
    };
  }

  stop(): void {
    this.closeStream();
    this.clearPollTimer();
    if (this.phase !== 'done') this.phase = 'stopped';
  }

  private onStreamMessage(event: MessageEvent): void {
    if (this.phase !== 'stream') return;
    this.clearConnectTimer();
    const status = parseStatus(event.data);
    if (!status) return;
    if (status.status === 'error') {
      this.setServerLoad(true);
      this.closeStream();
      this.startPolling();
      return;
    }
    this.handlers.onStatus(status);
    if (status.status === 'completed') {
      this.closeStream();
      void this.fetchResult();
    } else if (status.status === 'failed') {
      this.closeStream();
      this.finish();
      this.handlers.onFailed(failureCode(status));
    }
  }

  private startPolling(): void {
    if (this.phase === 'stopped' || this.phase === 'done') return;
    this.phase = 'polling';
    this.pollDelay = POLL.initialMs;
    this.schedulePoll();
  }

  private schedulePoll(): void {
    this.clearPollTimer();
    this.pollTimer = this.timers.setTimeout(() => {
      this.pollTimer = null;
      void this.poll();
    }, this.pollDelay);
  }

  private async poll(): Promise<void> {
    let status: QueueStatus;
    try {
      status = await this.deps.fetchStatus(this.jobId);
    } catch (error) {
      if (this.phase !== 'polling') return;
      // 408 is the server's "heavy load" answer; any other failure also backs off and retries.
      if (statusOf(error) === 408) this.setServerLoad(true);
      this.pollDelay = nextPollDelay(this.pollDelay, 'error');
      this.schedulePoll();
      return;
    }
    if (this.phase !== 'polling') return;
    if (status.status === 'error') {
      this.setServerLoad(true);
      this.pollDelay = nextPollDelay(this.pollDelay, 'error');
      this.schedulePoll();
      return;
    }
    this.handlers.onStatus(status);
    if (status.status === 'completed') {
      await this.fetchResult();
      return;
    }
    if (status.status === 'failed') {
      this.finish();
      this.handlers.onFailed(failureCode(status));
      return;
    }
    // An answer while the load flag is up keeps the pace; the answer itself shows the load has eased.
    this.pollDelay = nextPollDelay(this.pollDelay, this.serverLoad ? 'success-under-load' : 'success');
    this.setServerLoad(false);
    this.schedulePoll();
  }

  private async fetchResult(): Promise<void> {
    this.phase = 'fetching-result';
    try {
      const result = await this.deps.fetchResult(this.jobId);
      if (this.phase !== 'fetching-result') return;
      this.finish();
      this.handlers.onCompleted(result);
    } catch (error) {
      if (this.phase !== 'fetching-result') return;
      this.finish();
      this.handlers.onFailed(errorCodeOf(error) ?? 'resultNotFound');
    }
  }

  private finish(): void {
    this.phase = 'done';
    this.clearPollTimer();
    this.clearConnectTimer();
  }

  private setServerLoad(loaded: boolean): void {
    if (this.serverLoad === loaded) return;
    this.serverLoad = loaded;
    this.handlers.onServerLoad(loaded);
  }

  private closeStream(): void {
    this.clearConnectTimer();
    if (!this.stream) return;
    const stream = this.stream;
    this.stream = null;
    stream.onopen = null;
    stream.onmessage = null;
    stream.onerror = null;
    stream.close();
  }

  private clearConnectTimer(): void {
    if (this.connectTimer === null) return;
    this.timers.clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private clearPollTimer(): void {
    if (this.pollTimer === null) return;
    this.timers.clearTimeout(this.pollTimer);
    this.pollTimer = null;
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
