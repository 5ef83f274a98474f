import { nextPollDelay, POLL, STREAM_CONNECT_TIMEOUT_MS } from '@selfie-mosaic/contract';

/** The part of EventSource a follower uses, so tests can drive a fake one. */
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

/** The server's "heavy load" answer where a status was expected (a stream `error` message, a poll's). */
export const OVERLOADED = 'overloaded';
type Answer<S> = S | typeof OVERLOADED;

/** What is followed: one resource's event stream and its status endpoint, and how to read them. */
export interface FollowSource<S> {
  openStream(): StreamLike;
  fetchStatus(): Promise<Answer<S>>;
  /** One stream message as a status; null for anything to ignore (a comment, a shape this build does not know). */
  parse(data: unknown): Answer<S> | null;
  /** Nothing more will change after this status: the follower stops. */
  isFinal(status: S): boolean;
  /** A failed poll that retrying cannot mend (the resource is gone): the follower stops and reports it. */
  isFatal?(error: unknown): boolean;
}

export interface FollowHandlers<S> {
  onStatus(status: S): void;
  /** The server said it is under heavy load (stream `error`, or a 408 or `error` answer while polling). */
  onServerLoad(loaded: boolean): void;
  /** A poll failed with an error `isFatal` recognised; the follower has stopped. */
  onFatal?(error: unknown): void;
}

export type FollowPhase = 'idle' | 'stream' | 'polling' | 'done' | 'stopped';

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Reads the HTTP status of a failed request from ofetch's FetchError, the app's ApiRequestError or anything shaped like them. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
  const status = record.status ?? record.statusCode ?? record.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Follows one resource live (docs/product.md#job-monitoring): its event stream first; on a stream error, an
 * overload message or no connection within the connect timeout it falls back to polling with the contract's
 * backoff. It ends after a final status, a fatal poll error, or when stopped. Jobs and hand-offs both use it,
 * so a page under load backs off the same way whatever it follows.
 */
export class StreamFollower<S> {
  private readonly timers: Timers;
  private stream: StreamLike | null = null;
  private connectTimer: unknown = null;
  private pollTimer: unknown = null;
  private serverLoad = false;
  phase: FollowPhase = 'idle';
  /** The delay before the next poll, in ms. */
  pollDelay: number = POLL.initialMs;

  constructor(
    private readonly source: FollowSource<S>,
    private readonly handlers: FollowHandlers<S>,
    timers?: Timers,
  ) {
    this.timers = timers ?? defaultTimers;
  }

  get active(): boolean {
    return this.phase === 'stream' || this.phase === 'polling';
  }

  start(): void {
    if (this.phase !== 'idle') return;
    this.phase = 'stream';
    let stream: StreamLike;
    try {
      stream = this.source.openStream();
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
    const status = this.source.parse(event.data);
    if (status === null) return;
    if (status === OVERLOADED) {
      this.setServerLoad(true);
      this.closeStream();
      this.startPolling();
      return;
    }
    if (this.source.isFinal(status)) {
      this.closeStream();
      this.finish();
    }
    this.handlers.onStatus(status);
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
    let status: Answer<S>;
    try {
      status = await this.source.fetchStatus();
    } catch (error) {
      if (this.phase !== 'polling') return;
      if (this.source.isFatal?.(error)) {
        this.finish();
        this.handlers.onFatal?.(error);
        return;
      }
      // 408 is the server's "heavy load" answer; any other failure also backs off and retries.
      if (statusOf(error) === 408) this.setServerLoad(true);
      this.pollDelay = nextPollDelay(this.pollDelay, 'error');
      this.schedulePoll();
      return;
    }
    if (this.phase !== 'polling') return;
    if (status === OVERLOADED) {
      this.setServerLoad(true);
      this.pollDelay = nextPollDelay(this.pollDelay, 'error');
      this.schedulePoll();
      return;
    }
    if (this.source.isFinal(status)) {
      this.finish();
      this.handlers.onStatus(status);
      return;
    }
    this.handlers.onStatus(status);
    // An answer while the load flag is up keeps the pace; the answer itself shows the load has eased.
    this.pollDelay = nextPollDelay(this.pollDelay, this.serverLoad ? 'success-under-load' : 'success');
    this.setServerLoad(false);
    this.schedulePoll();
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
