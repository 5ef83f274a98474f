import type { ServerResponse } from 'node:http';
import { isFinalStatus, type QueueStatus } from '@selfie-mosaic/contract';
import type { EventStream, EventStreams } from './event-streams.js';
import { jobStatus } from './jobs/job-status.js';
import type { QueueClock } from './jobs/queue-clock.js';
import { etaSeconds } from './jobs/queue-eta.js';
import type { Backend, JobEvent, JobRecord } from './types.js';

interface OpenStream {
  jobId: string;
  out: EventStream;
  lastStatus: QueueStatus['status'];
  /** The last waiting message's place and estimate: moving forward never makes the wait grow. */
  lastPosition: number;
  lastEta: number | null;
  /** Status events received; a store read that started before one arrived is stale. */
  eventsSeen: number;
}

/** Fans job status changes out to the open job streams. */
export class StreamHub {
  private readonly streams = new Set<OpenStream>();
  private stopMovedListener: (() => void) | undefined;
  private movedPending = false;

  constructor(
    private readonly backend: Backend,
    private readonly clock: QueueClock,
    private readonly eventStreams: EventStreams,
  ) {}

  /** Takes over the response: the caller must have checked that the job exists. */
  async open(raw: ServerResponse, job: JobRecord): Promise<void> {
    const out = this.eventStreams.open(raw);
    if (!out) return;
    // Listen for queue moves from the first stream on (in scale mode this subscribes to Redis).
    this.stopMovedListener ??= this.backend.events.onQueueMoved(() => this.queueMoved());
    const stream: OpenStream = {
      jobId: job.id,
      out,
      lastPosition: 0,
      lastEta: null,
      lastStatus: job.status,
      eventsSeen: 0,
    };
    this.streams.add(stream);
    // Subscribe before the first read so no change can slip between the two.
    const unsubscribe = this.backend.events.subscribe(job.id, (event) => void this.fromEvent(stream, event));
    out.onDrop = () => {
      this.streams.delete(stream);
      unsubscribe();
    };
    out.resync = () => void this.refresh(stream);
    await this.refresh(stream);
  }

  /** Stops following queue moves (shutdown; the streams themselves are ended by `EventStreams`). */
  close(): void {
    this.stopMovedListener?.();
  }

  /** Reads the job from the store: for the first message. */
  private async refresh(stream: OpenStream): Promise<void> {
    const seen = stream.eventsSeen;
    const job = await this.backend.jobs.get(stream.jobId);
    if (!this.streams.has(stream)) return;
    if (!job) {
      stream.out.raw.end();
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
    if (!this.streams.has(stream) || !this.eventStreams.writable(stream.out)) return;
    const payload = JSON.stringify(this.forward(stream, status));
    stream.lastStatus = status.status;
    this.eventStreams.write(stream.out, payload);
    if (isFinalStatus(status.status)) stream.out.raw.end();
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
}
