import { MESSAGES, type RefusalCode, refusalMessage } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../plugins/metrics.js';
import type { RenderPool } from './render-pool.js';
import type { Backend, QueueDelivery } from './types.js';

export interface JobRunnerOptions {
  backend: Backend;
  pool: RenderPool;
  log: FastifyBaseLogger;
  metrics: Metrics;
  maxAttempts: number;
  resultTtlMs: number;
  concurrency: number;
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
    const { jobs, queue } = this.options.backend;
    for (const jobId of await queue.recover()) await this.requeued(jobId);
    // Scale mode: BullMQ puts a dead worker's job back whenever its lock runs out.
    queue.onRecovered((jobId) => {
      this.requeued(jobId).catch((err) => this.options.log.error({ err, jobId }, 'recovered job not re-marked'));
    });
    // Accepted but never queued, or marked queued just before the process stopped.
    for (const jobId of await jobs.idsWithStatus('pending')) await enqueueJob(this.options.backend, jobId);
    for (const jobId of await jobs.idsWithStatus('queued')) await queue.add(jobId);
    queue.process((delivery) => this.run(delivery), { concurrency: this.options.concurrency });
  }

  /** A job whose worker died is waiting again: say so, so its stream shows a position again. */
  private async requeued(jobId: string): Promise<void> {
    const { backend } = this.options;
    await backend.jobs.markQueued(jobId, 'processing');
    backend.events.publish({ jobId, status: 'queued', errorMessage: null, errorCode: null });
    backend.events.publishQueueMoved();
  }

  private async run({ jobId, attempt }: QueueDelivery): Promise<void> {
    const { backend, pool, log, metrics, maxAttempts } = this.options;
    const job = await backend.jobs.get(jobId);
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    if (attempt > maxAttempts || !job.photoKey) {
      await this.fail(jobId, job.photoKey, MESSAGES.renderFailed, 'render_failed');
      return;
    }
    await backend.jobs.markProcessing(jobId, attempt);
    backend.events.publish({ jobId, status: 'processing', errorMessage: null, errorCode: null });
    backend.events.publishQueueMoved();

    const stopTimer = metrics.renderSeconds.startTimer();
    try {
      const photo = await backend.storage.readPhoto(job.photoKey);
      const outcome = await pool.render({ photo, blacklabel: job.blacklabel, attempt });
      if (outcome.kind === 'refused') {
        stopTimer({ outcome: 'refused' });
        await this.fail(jobId, job.photoKey, refusalMessage(outcome.code), outcome.code);
        return;
      }
      const token = await backend.storage.saveResult(Buffer.from(outcome.jpeg));
      const expiresAt = Date.now() + this.options.resultTtlMs;
      await backend.jobs.markCompleted(jobId, { token, width: outcome.width, height: outcome.height, expiresAt });
      await this.dropPhoto(jobId, job.photoKey);
      stopTimer({ outcome: 'completed' });
      metrics.jobsFinished.inc({ status: 'completed' });
      backend.events.publish({ jobId, status: 'completed', errorMessage: null, errorCode: null });
      log.info({ jobId, attempt, timings: outcome.timings, tiles: outcome.tiles }, 'job completed');
    } catch (error) {
      stopTimer({ outcome: 'error' });
      log.warn({ jobId, attempt, err: error }, 'render attempt failed');
      if (attempt >= maxAttempts) {
        await this.fail(jobId, job.photoKey, MESSAGES.renderFailed, 'render_failed');
        return;
      }
      await backend.jobs.markQueued(jobId, 'processing');
      backend.events.publish({ jobId, status: 'queued', errorMessage: null, errorCode: null });
      backend.events.publishQueueMoved();
      throw error;
    }
  }

  private async fail(jobId: string, photoKey: string | null, message: string, code: RefusalCode | null) {
    const { backend, metrics, resultTtlMs } = this.options;
    await backend.jobs.markFailed(jobId, { message, code, expiresAt: Date.now() + resultTtlMs });
    if (photoKey) await this.dropPhoto(jobId, photoKey);
    metrics.jobsFinished.inc({ status: 'failed' });
    backend.events.publish({ jobId, status: 'failed', errorMessage: message, errorCode: code });
  }

  /** The uploaded photo is deleted as soon as its job ends (DESIGN, retention). */
  private async dropPhoto(jobId: string, photoKey: string): Promise<void> {
    await this.options.backend.storage.deletePhoto(photoKey);
    await this.options.backend.jobs.clearPhoto(jobId);
  }
}
