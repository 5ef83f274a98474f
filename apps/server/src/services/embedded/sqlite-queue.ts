import type { SqliteConnection } from '../sql/connect.js';
import type { JobQueue, QueueCounts, QueueDelivery, QueueHandler, QueueReservation } from '../types.js';
import { OrderedIds } from './ordered-ids.js';

/** How soon the queue tries again to start a job after the database refused the write. */
const WRITE_RETRY_MS = 1000;

interface EntryRow {
  job_id: string;
  seq: number;
  state: 'waiting' | 'active';
  attempt: number;
}

/**
 * The embedded FIFO queue: in-process dispatch, state in SQLite so it survives a restart. Waiting ids are
 * mirrored in memory (rebuilt from SQLite at start) so positions never scan the table.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly waiting = new OrderedIds();
  private readonly active = new Map<string, Promise<void>>();
  private readonly attempts = new Map<string, number>();
  private readonly statements;
  private nextSeq: number;
  private handler: QueueHandler | undefined;
  private concurrency = 1;
  private closing = false;
  private pumpScheduled = false;
  /** Places taken by uploads still being checked and stored. */
  private reserved = 0;
  private readonly recoveredListeners = new Set<(jobId: string) => void>();
  private retryTimer: NodeJS.Timeout | undefined;

  /** `onError` hears of queue writes that failed (a full disk, a locked database); the queue carries on. */
  constructor(
    db: SqliteConnection,
    private readonly onError: (error: Error) => void = () => {},
  ) {
    // The queue's own table: only the embedded queue uses it (scale mode queues in Redis).
    db.exec(`CREATE TABLE IF NOT EXISTS queue_entries (
      job_id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL UNIQUE,
      state TEXT NOT NULL CHECK (state IN ('waiting', 'active')),
      attempt INTEGER NOT NULL DEFAULT 0
    )`);
    this.statements = {
      insert: db.prepare(`INSERT OR IGNORE INTO queue_entries (job_id, seq, state) VALUES (?, ?, 'waiting')`),
      activate: db.prepare(`UPDATE queue_entries SET state = 'active', attempt = ? WHERE job_id = ?`),
      release: db.prepare(`UPDATE queue_entries SET state = 'waiting' WHERE job_id = ?`),
      remove: db.prepare('DELETE FROM queue_entries WHERE job_id = ?'),
      all: db.prepare<[], EntryRow>('SELECT job_id, seq, state, attempt FROM queue_entries ORDER BY seq'),
      maxSeq: db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM queue_entries'),
      recover: db.prepare<[], { job_id: string }>(
        `UPDATE queue_entries SET state = 'waiting' WHERE state = 'active' RETURNING job_id`,
      ),
    };
    this.nextSeq = (this.statements.maxSeq.get()?.seq ?? 0) + 1;
    // A row still 'active' belongs to a delivery that a previous process never finished.
    for (const row of this.statements.all.all()) {
      this.waiting.insert(row.job_id, row.seq);
      this.attempts.set(row.job_id, row.attempt);
    }
  }

  async add(jobId: string): Promise<void> {
    if (this.waiting.has(jobId) || this.active.has(jobId)) return;
    const seq = this.nextSeq++;
    this.statements.insert.run(jobId, seq);
    this.waiting.insert(jobId, seq);
    this.attempts.set(jobId, 0);
    this.schedulePump();
  }

  async position(jobId: string): Promise<number> {
    const index = this.waiting.indexOf(jobId);
    return index === -1 ? 0 : index + 1;
  }

  async positions(jobIds: readonly string[]): Promise<number[]> {
    return jobIds.map((jobId) => this.waiting.indexOf(jobId) + 1);
  }

  /** The queue lives in the embedded database, which the backend's own ping reaches. */
  async ping(): Promise<void> {}

  async counts(): Promise<QueueCounts> {
    return { waiting: this.waiting.size, active: this.active.size };
  }

  /** One process holds the queue: counting and taking the place happen in one synchronous step. */
  async reserve(limit: number): Promise<QueueReservation | undefined> {
    if (this.waiting.size + this.reserved >= limit) return undefined;
    this.reserved++;
    let held = true;
    return async () => {
      if (held) this.reserved--;
      held = false;
    };
  }

  async recover(): Promise<string[]> {
    const ids = this.statements.recover.all().map((row) => row.job_id);
    for (const id of ids) for (const listener of this.recoveredListeners) listener(id);
    return ids;
  }

  onRecovered(listener: (jobId: string) => void): void {
    this.recoveredListeners.add(listener);
  }

  process(handler: QueueHandler, options: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = options.concurrency;
    this.schedulePump();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retryTimer);
    await Promise.allSettled([...this.active.values()]);
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const handler = this.handler;
    if (!handler) return;
    while (!this.closing && this.active.size < this.concurrency) {
      const next = this.waiting.shift();
      if (!next) return;
      const attempt = (this.attempts.get(next.id) ?? 0) + 1;
      try {
        this.statements.activate.run(attempt, next.id);
      } catch (error) {
        // The database takes no writes: the job keeps its place, and the queue tries again shortly.
        this.waiting.insert(next.id, next.seq);
        this.onError(error as Error);
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          this.schedulePump();
        }, WRITE_RETRY_MS).unref();
        return;
      }
      this.attempts.set(next.id, attempt);
      const delivery: QueueDelivery = { jobId: next.id, attempt };
      const run = this.deliver(handler, delivery, next.seq);
      this.active.set(next.id, run);
    }
  }

  /** Never rejects: a failed handler goes back to its place, and a failed queue write is only reported. */
  private async deliver(handler: QueueHandler, delivery: QueueDelivery, seq: number): Promise<void> {
    let finished = false;
    try {
      await handler(delivery);
      finished = true;
    } catch {
      // Back to the head of the queue (its original place) for another attempt.
      this.waiting.insert(delivery.jobId, seq);
    }
    try {
      // A row left 'active' by a failed write is put back to waiting at the next start, like a crash's.
      if (finished) this.statements.remove.run(delivery.jobId);
      else this.statements.release.run(delivery.jobId);
    } catch (error) {
      this.onError(error as Error);
    }
    if (finished) this.attempts.delete(delivery.jobId);
    this.active.delete(delivery.jobId);
    this.schedulePump();
  }
}
