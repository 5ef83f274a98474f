import type { ServerResponse } from 'node:http';
import { isFinalStatus, MESSAGES, type QueueStatus } from '@selfie-mosaic/contract';
import { jobStatus } from './jobs/job-status.js';
import type { QueueClock } from './jobs/queue-clock.js';
import { etaSeconds } from './jobs/queue-eta.js';
import type { Metrics } from './metrics.js';
import type { Backend, JobEvent, JobRecord } from './types.js';

interface OpenStream {
  jobId: string;
  raw: ServerResponse;
  lastSent: string;
  lastStatus: QueueStatus['status'];
  /** The last waiting message's place and estimate: moving forward never makes the wait grow. */
  lastPosition: number;
  lastEta: number | null;
  eventId: number;
  /** Status events received; a store read that started before one arrived is stale. */
  eventsSeen: number;
  /** A slow client's socket is full: skip updates and send the latest state on 'drain'. */
  waitingForDrain: boolean;
  unsubscribe: () => void;
}

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // The body runs until the connection closes (no chunked encoding, see open()).
  connection: 'close',
  'x-content-type-options': 'nosniff',
  // Tells nginx-style proxies not to buffer the stream.
  'x-accel-buffering': 'no',
};

/** The stream's one message under overload: the client closes it and polls instead. */
const OVERLOAD: QueueStatus = {
  status: 'error',
  queue_position: 0,
  error_message: MESSAGES.serverHeavyLoad,
  error_code: null,
  eta_seconds: null,
};
const OVERLOAD_MESSAGE = `data: ${JSON.stringify(OVERLOAD)}\n\n`;

/** Fans status changes out to open event streams; one shared heartbeat timer for all of them. */
export class StreamHub {
  private readonly streams = new Set<OpenStream>();
  private readonly heartbeat: NodeJS.Timeout;
  private stopMovedListener: (() => void) | undefined;
  private movedPending = false;

  constructor(
    private readonly backend: Backend,
    private readonly clock: QueueClock,
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

  /** Takes over the response: the caller must have checked that the job exists. */
  async open(raw: ServerResponse, job: JobRecord): Promise<void> {
    // No chunked encoding: the stream's body simply runs until the connection closes, as event streams
    // may. Each message is then one socket write instead of four corked ones, whose buffers outlive
    // the young-generation GC: with 10,000 streams updated on every queue move, that churn alone grew
    // the heap by over 100 MB.
    raw.removeHeader('transfer-encoding');
    raw.writeHead(200, HEADERS);
    raw.socket?.setNoDelay(true);
    if (this.streams.size >= this.limit || this.degraded()) {
      raw.end(OVERLOAD_MESSAGE);
      return;
    }
    // Listen for queue moves from the first stream on (in scale mode this subscribes to Redis).
    this.stopMovedListener ??= this.backend.events.onQueueMoved(() => this.queueMoved());
    const stream: OpenStream = {
      jobId: job.id,
      raw,
      lastSent: '',
      lastPosition: 0,
      lastEta: null,
      lastStatus: job.status,
      eventId: 0,
      eventsSeen: 0,
      waitingForDrain: false,
      unsubscribe: () => {},
    };
    this.streams.add(stream);
    this.metrics.openStreams.inc();
    raw.on('close', () => this.drop(stream));
    // Subscribe before the first read so no change can slip between the two.
    stream.unsubscribe = this.backend.events.subscribe(job.id, (event) => void this.fromEvent(stream, event));
    await this.refresh(stream);
  }

  /** Ends every stream (graceful shutdown); clients reconnect or fall back to polling. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    this.stopMovedListener?.();
    for (const stream of [...this.streams]) stream.raw.end();
  }

  /** Sends every open stream the overload message and ends it: its client polls instead. */
  shedAll(): void {
    for (const stream of [...this.streams]) {
      this.drop(stream);
      stream.raw.end(OVERLOAD_MESSAGE);
    }
  }

  /** Reads the job from the store: for the first message. */
  private async refresh(stream: OpenStream): Promise<void> {
    const seen = stream.eventsSeen;
    const job = await this.backend.jobs.get(stream.jobId);
    if (!this.streams.has(stream)) return;
    if (!job) {
      stream.raw.end();
      return;
    }
    const status = await jobStatus(this.backend, this.clock, job);
    if (stream.eventsSeen === seen) this.send(stream, status);
  }

  /** A status change carries everything but the position: no store read per stream. */
  private async fromEvent(stream: OpenStream, event: JobEvent): Promise<void> {
    stream.eventsSeen++;
    const waiting = event.status === 'queued' || event.status === 'pending';
    const position = waiting ? Math.max(1, await this.backend.queue.position(event.jobId)) : 0;
    // A job announced as processing has just started rendering: a whole render is ahead of it.
    const eta = await this.clock.eta({ status: event.status, position });
    this.send(stream, {
      status: event.status,
      queue_position: position,
      error_message: event.errorMessage,
      error_code: event.errorCode,
      eta_seconds: eta,
    });
  }

  /**
   * The queue moved: only waiting jobs' positions can have changed. One batched lookup for all of them
   * (in scale mode one Redis call per thousand jobs rather than one per stream).
   */
  private async refreshPositions(): Promise<void> {
    const waiting = [...this.streams].filter((stream) => stream.lastStatus === 'queued');
    if (waiting.length === 0) return;
    const jobIds = [...new Set(waiting.map((stream) => stream.jobId))];
    const positions = await this.backend.queue.positions(jobIds);
    const byJob = new Map(jobIds.map((jobId, i) => [jobId, positions[i] ?? 0]));
    // One throughput measurement for the whole pass; each estimate is then plain arithmetic.
    const throughput = await this.clock.throughput();
    for (const stream of waiting) {
      const position = byJob.get(stream.jobId) ?? 0;
      if (stream.lastStatus !== 'queued' || position === 0) continue;
      this.send(stream, {
        status: 'queued',
        queue_position: position,
        error_message: null,
        error_code: null,
        eta_seconds: etaSeconds({ status: 'queued', position, renderingForMs: 0 }, throughput),
      });
    }
  }

  private send(stream: OpenStream, status: QueueStatus): void {
    if (!this.streams.has(stream) || stream.waitingForDrain) return;
    if (stream.raw.writableNeedDrain) {
      // Never queue up messages for a client that is not reading; its next message is the current state.
      stream.waitingForDrain = true;
      stream.raw.once('drain', () => {
        stream.waitingForDrain = false;
        void this.refresh(stream);
      });
      return;
    }
    const payload = JSON.stringify(this.forward(stream, status));
    stream.lastStatus = status.status;
    if (payload !== stream.lastSent) {
      stream.lastSent = payload;
      stream.eventId++;
      stream.raw.write(`id: ${stream.eventId}\ndata: ${payload}\n\n`);
    }
    if (isFinalStatus(status.status)) stream.raw.end();
  }

  /**
   * A visitor who moves up the queue never sees the wait grow: the estimate is measured afresh for
   * every message, and a slower render measured meanwhile (the machine busy with uploads) would
   * otherwise turn the countdown back just as the place counts down. The fresh figure shows once the
   * place stops moving, so a machine that has slowed for good is still told.
   */
  private forward(stream: OpenStream, status: QueueStatus): QueueStatus {
    const waiting = status.status === 'queued';
    const moved = waiting && stream.lastPosition > 0 && status.queue_position < stream.lastPosition;
    const fresh = status.eta_seconds ?? null;
    const eta = moved && fresh !== null && stream.lastEta !== null ? Math.min(fresh, stream.lastEta) : fresh;
    stream.lastPosition = waiting ? status.queue_position : 0;
    stream.lastEta = waiting ? eta : null;
    return eta === fresh ? status : { ...status, eta_seconds: eta };
  }

  /** Positions shift whenever a job starts; coalesced so a busy queue costs one pass per tick. */
  private queueMoved(): void {
    if (this.movedPending) return;
    this.movedPending = true;
    setImmediate(() => {
      this.movedPending = false;
      this.refreshPositions().catch(() => {
        // A failed lookup only delays the countdown until the next move; streams stay open.
      });
    });
  }

  private ping(): void {
    for (const stream of this.streams) stream.raw.write(': ping\n\n');
  }

  private drop(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    stream.unsubscribe();
    this.metrics.openStreams.dec();
  }
}
