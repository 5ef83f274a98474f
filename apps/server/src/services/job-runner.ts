import { MESSAGES, type RefusalCode, refusalMessage } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../plugins/metrics.js';
import type { RenderPool } from './render-pool.js';
import type { StorageHealth } from './storage-health.js';
import type { Backend, QueueDelivery } from './types.js';

export interface JobRunnerOptions {
  backend: Backend;
  pool: RenderPool;
  /** Jobs wait while storage refuses writes, and report the write failures they meet. */
  health: StorageHealth;
  log: FastifyBaseLogger;
  metrics: Metrics;
  maxAttempts: number;
  resultTtlMs: number;
  concurrency: number;
}

/** The artwork's bytes as they arrived from the render process, without copying the megabyte again. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Hands a stored (`pending`) job to the queue. Needs no worker: an API-only process can call it. The
 * record says `queued` before the queue has it, so a fast worker's `processing` is never overwritten;
 * a job left `queued` but missing from the queue is put back at start (`add` is idempotent).
 */
export async function enqueueJob(backend: Backend, jobId: string): Promise<void> {
  await backend.jobs.markQueued(jobId, 'pending');
  backend.events.publish({ jobId, status: 'queued', errorMessage: null, errorCode: null });
  await backend.queue.add(jobId);
}

/**
 * The worker side of a job's life: queued → processing → completed | failed. A refusal of the engine fails
 * the job with its message; any other error (a crashed worker thread included) puts it back in the queue
 * until `maxAttempts` attempts have been made.
 */
export class JobRunner {
  constructor(private readonly options: JobRunnerOptions) {}

  /** Puts back jobs a previous process left behind, then starts consuming the queue. */
  async start(): Promise<void> {
    const { queue } = this.options.backend;
    for (const jobId of await queue.recover()) await this.requeued(jobId);
    // Scale mode: BullMQ puts a dead worker's job back whenever its lock runs out.
    queue.onRecovered((jobId) => {
      this.requeued(jobId).catch((err) => this.options.log.error({ err, jobId }, 'recovered job not re-marked'));
    });
    await this.queueStranded();
    queue.process(
      (delivery) =>
        this.run(delivery).catch((error) => {
          // Whatever escaped (a record that could not be written): noted, and the queue delivers it again.
          this.options.health.report(error);
          throw error;
        }),
      { concurrency: this.options.concurrency },
    );
  }

  /**
   * Queues the jobs accepted but never queued, or marked queued just before the process stopped or a
   * queue write failed (a full disk). At start, and again when storage takes writes after a fault.
   */
  async queueStranded(): Promise<void> {
    const { backend } = this.options;
    for (const jobId of await backend.jobs.idsWithStatus('pending')) await enqueueJob(backend, jobId);
    for (const jobId of await backend.jobs.idsWithStatus('queued')) await backend.queue.add(jobId);
  }

  /** A job whose worker died is waiting again: say so, so its stream shows a position again. */
  private async requeued(jobId: string): Promise<void> {
    const { backend } = this.options;
    await backend.jobs.markQueued(jobId, 'processing');
    backend.events.publish({ jobId, status: 'queued', errorMessage: null, errorCode: null });
    backend.events.publishQueueMoved();
  }

  /**
   * One delivery. Every failure is caught here: a refusal fails the job, anything else (a crashed worker,
   * a full disk, a locked database) puts it back for another attempt until `maxAttempts`, and a job that
   * cannot even be marked is left to the queue, which delivers it again.
   */
  private async run({ jobId, attempt }: QueueDelivery): Promise<void> {
    const { backend, pool, log, metrics, maxAttempts, health } = this.options;
    // While storage refuses writes, a render could not be kept: wait instead of spending attempts.
    await health.whenWritable();
    const job = await backend.jobs.get(jobId);
    if (!job) return;
    const photoKey = job.photoKey;
    if (job.status === 'completed' || job.status === 'failed') {
      // Delivered again after its end was recorded: its worker died before the rest of the job's books. The end
      // goes into the history if it is not there yet (the first end counts), and the photo goes now.
      const end = { outcome: job.status, errorCode: job.errorCode, renderMs: null, at: job.updatedAt };
      await this.attempt(jobId, 'job end not recorded', () => backend.history.recordEnd(jobId, end));
      if (photoKey) await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
      return;
    }
    if (attempt > maxAttempts || !photoKey) {
      await this.fail(jobId, photoKey, MESSAGES.renderFailed, 'render_failed');
      return;
    }

    const stopTimer = metrics.renderSeconds.startTimer();
    const startedAt = Date.now();
    let token: string | undefined;
    try {
      await backend.jobs.markProcessing(jobId, attempt);
      backend.events.publish({ jobId, status: 'processing', errorMessage: null, errorCode: null });
      backend.events.publishQueueMoved();
      const photo = await backend.storage.readPhoto(photoKey);
      const outcome = await pool.render({ photo, blacklabel: job.blacklabel, attempt });
      if (outcome.kind === 'refused') {
        stopTimer({ outcome: 'refused' });
        await this.fail(jobId, photoKey, refusalMessage(outcome.code), outcome.code, Date.now() - startedAt);
        return;
      }
      token = await backend.storage.saveResult(asBuffer(outcome.jpeg), asBuffer(outcome.story.jpeg));
      const expiresAt = Date.now() + this.options.resultTtlMs;
      await backend.jobs.markCompleted(jobId, { token, width: outcome.width, height: outcome.height, expiresAt });
      token = undefined;
      stopTimer({ outcome: 'completed' });
      metrics.jobsFinished.inc({ status: 'completed' });
      backend.events.publish({ jobId, status: 'completed', errorMessage: null, errorCode: null });
      log.info({ jobId, attempt, timings: outcome.timings, tiles: outcome.tiles }, 'job completed');
      const end = { outcome: 'completed', errorCode: null, renderMs: Date.now() - startedAt, at: Date.now() } as const;
      await this.attempt(jobId, 'job end not recorded', () => backend.history.recordEnd(jobId, end));
    } catch (error) {
      stopTimer({ outcome: 'error' });
      health.report(error);
      log.warn({ jobId, attempt, err: error }, 'render attempt failed');
      // An artwork whose job could not be marked completed belongs to nobody: it goes now (or at the sweep).
      const orphan = token;
      if (orphan) await this.attempt(jobId, 'orphan artwork not deleted', () => backend.storage.deleteResult(orphan));
      if (attempt >= maxAttempts) {
        await this.fail(jobId, photoKey, MESSAGES.renderFailed, 'render_failed');
        return;
      }
      await this.attempt(jobId, 'job not re-marked queued', () => backend.jobs.markQueued(jobId, 'processing'));
      backend.events.publish({ jobId, status: 'queued', errorMessage: null, errorCode: null });
      backend.events.publishQueueMoved();
      throw error;
    }
    // Completed: the photo goes now; if its delete fails, the sweep deletes photos of ended jobs.
    await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
  }

  /** A best-effort step after the outcome is settled: its failure is logged (and noted), never thrown. */
  private async attempt(jobId: string, what: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (err) {
      this.options.health.report(err);
      this.options.log.warn({ jobId, err }, what);
    }
  }

  private async fail(
    jobId: string,
    photoKey: string | null,
    message: string,
    code: RefusalCode | null,
    renderMs: number | null = null,
  ) {
    const { backend, metrics, resultTtlMs } = this.options;
    // If this write fails the error reaches the queue, which delivers the job again to fail it then.
    await backend.jobs.markFailed(jobId, { message, code, expiresAt: Date.now() + resultTtlMs });
    const end = { outcome: 'failed', errorCode: code, renderMs, at: Date.now() } as const;
    await this.attempt(jobId, 'job end not recorded', () => backend.history.recordEnd(jobId, end));
    if (photoKey) await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
    metrics.jobsFinished.inc({ status: 'failed' });
    backend.events.publish({ jobId, status: 'failed', errorMessage: message, errorCode: code });
  }

  /** The uploaded photo is deleted as soon as its job ends (docs/architecture.md#data-and-retention). */
  private async dropPhoto(jobId: string, photoKey: string): Promise<void> {
    const { backend } = this.options;
    await backend.storage.deletePhoto(photoKey);
    await backend.jobs.clearPhoto(jobId);
    await backend.history.photosDeleted([jobId], Date.now());
  }
}
