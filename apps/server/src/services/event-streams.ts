import type { ServerResponse } from 'node:http';
import { MESSAGES, type QueueStatus } from '@selfie-mosaic/contract';
import type { Metrics } from './metrics.js';

/** One open event stream, whatever it follows (a job, a hand-off). */
export interface EventStream {
  readonly raw: ServerResponse;
  eventId: number;
  lastSent: string;
  /** A slow client's socket is full: updates are skipped and `resync` sends the latest state on 'drain'. */
  waitingForDrain: boolean;
  resync: () => void;
  /** Undoes what the stream's owner set up for it (subscriptions, timers); called once, however it ends. */
  onDrop: () => void;
}

/**
 * A stream's one message under overload (over the limit, a dependency away), whatever it follows: the
 * client closes it and polls instead. Clients know it by its `status: "error"`, which no state has.
 */
const OVERLOAD: QueueStatus = {
  status: 'error',
  queue_position: 0,
  error_message: MESSAGES.serverHeavyLoad,
  error_code: null,
  eta_seconds: null,
};
export const OVERLOAD_MESSAGE = `data: ${JSON.stringify(OVERLOAD)}\n\n`;

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // The body runs until the connection closes (no chunked encoding, see open()).
  connection: 'close',
  'x-content-type-options': 'nosniff',
  // Tells nginx-style proxies not to buffer the stream.
  'x-accel-buffering': 'no',
};

/**
 * Every open event stream of the process, whatever it follows: the one limit they share (`STREAM_LIMIT`),
 * one heartbeat timer for all of them, and shedding them all to polling while a dependency is away.
 * What a stream says, and when, is its owner's (`StreamHub` for jobs, `HandoffStreams` for hand-offs).
 */
export class EventStreams {
  private readonly streams = new Set<EventStream>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly limit: number,
    heartbeatMs: number,
    private readonly metrics: Metrics,
    /** While true (a dependency is away, so events may be lost) new streams are sent to polling at once. */
    private readonly degraded: () => boolean = () => false,
  ) {
    this.heartbeat = setInterval(() => this.ping(), heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /**
   * Takes over the response as an event stream. Undefined when it was shed at once (over the limit, or a
   * dependency away): it got the overload message and has ended.
   */
  open(raw: ServerResponse): EventStream | undefined {
    // No chunked encoding: the stream's body simply runs until the connection closes, as event streams
    // may. Each message is then one socket write instead of four corked ones, whose buffers outlive
    // the young-generation GC: with thousands of streams updated on every queue move, that churn alone
    // grows the heap markedly.
    raw.removeHeader('transfer-encoding');
    raw.writeHead(200, HEADERS);
    raw.socket?.setNoDelay(true);
    if (this.streams.size >= this.limit || this.degraded()) {
      raw.end(OVERLOAD_MESSAGE);
      return undefined;
    }
    const stream: EventStream = {
      raw,
      eventId: 0,
      lastSent: '',
      waitingForDrain: false,
      resync: () => {},
      onDrop: () => {},
    };
    this.streams.add(stream);
    this.metrics.openStreams.inc();
    raw.on('close', () => this.drop(stream));
    return stream;
  }

  isOpen(stream: EventStream): boolean {
    return this.streams.has(stream);
  }

  /**
   * Whether a message can go out now. Never queues up messages for a client that is not reading: its
   * next message, once its socket drains, is the current state (`resync`).
   */
  writable(stream: EventStream): boolean {
    if (!this.streams.has(stream) || stream.waitingForDrain) return false;
    if (!stream.raw.writableNeedDrain) return true;
    stream.waitingForDrain = true;
    stream.raw.once('drain', () => {
      stream.waitingForDrain = false;
      stream.resync();
    });
    return false;
  }

  /** Sends `payload` as the next `data:` message, unless it repeats the last one. Check `writable` first. */
  write(stream: EventStream, payload: string): void {
    if (payload === stream.lastSent) return;
    stream.lastSent = payload;
    stream.eventId++;
    stream.raw.write(`id: ${stream.eventId}\ndata: ${payload}\n\n`);
  }

  /** Ends every stream (graceful shutdown); clients reconnect or fall back to polling. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const stream of [...this.streams]) stream.raw.end();
  }

  /** Sends every open stream the overload message and ends it: its client polls instead. */
  shedAll(): void {
    for (const stream of [...this.streams]) {
      this.drop(stream);
      stream.raw.end(OVERLOAD_MESSAGE);
    }
  }

  private ping(): void {
    for (const stream of this.streams) stream.raw.write(': ping\n\n');
  }

  private drop(stream: EventStream): void {
    if (!this.streams.delete(stream)) return;
    stream.onDrop();
    this.metrics.openStreams.dec();
  }
}
