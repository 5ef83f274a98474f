import { randomUUID } from 'node:crypto';
import { isFinalStatus, MESSAGES, refusalMessage } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics.js';
import { type RenderPool, RenderTimeoutError } from '../render-pool.js';
import { describe, type StorageHealth } from '../storage-health.js';
import type { Backend, JobEvent, JobFailure, QueueDelivery } from '../types.js';

export interface JobRunnerOptions {
  backend: Backend;
  pool: RenderPool;
  /** Jobs wait while storage refuses writes or a dependency is away, and report the failures they meet. */
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

/** A status change for the job's followers; `moved` when other jobs' places in the queue changed with it. */
function announce(backend: Backend, event: JobEvent | undefined, moved = false): void {
  if (!event) return;
  backend.events.publish(event);
  if (moved) backend.events.publishQueueMoved();
}

/**
 * Hands a stored (`pending`) job to the queue. Needs no worker: an API-only process can call it. The
 * record says `queued` before the queue has it, so a fast worker's `processing` is never overwritten;
 * a job left `queued` but missing from the queue is put back (`add` is idempotent).
 */
export async function enqueueJob(backend: Backend, jobId: string): Promise<void> {
  announce(backend, await backend.ledger.queued(jobId));
  await backend.queue.add(jobId);
}

/**
 * The worker side of a job's life: queued → processing → completed | failed, each step a transition of
 * the job's ledger. A refusal of the engine fails the job with its message; any other error (a crashed
 * worker thread or a render past its deadline included) puts it back in the queue until `maxAttempts`
 * attempts have been made. Only the delivery that holds the job records its end: a delivery the queue
 * gave up for dead (its lock lost in a Redis outage) finds its render superseded and keeps nothing.
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
        this.run(delivery).catch(async (error) => {
          // Whatever escaped (a record that could not be written) is noted, and the queue delivers the job
          // again; while its cause lasts (a database restarting) the job waits here rather than spend its
          // attempts on it.
          if (this.options.health.report(error)) await this.options.health.whenWritable();
          throw error;
        }),
      { concurrency: this.options.concurrency },
    );
  }

  /**
   * Queues the jobs accepted but never queued, or marked queued but missing from the queue (the process
   * stopped, a queue write failed, Redis lost it in a crash). At start, when storage and the dependencies
   * work again after a fault, and in scale mode at every sweep.
   */
  async queueStranded(): Promise<void> {
    const { backend } = this.options;
    for (const jobId of await backend.jobs.idsWithStatus('pending')) await enqueueJob(backend, jobId);
    // A job the queue holds is left as it is (`add` is idempotent), so only those it lost are queued again;
    // one in processing that the queue lost is taken over by its new delivery.
    for (const status of ['queued', 'processing'] as const) {
      for (const jobId of await backend.jobs.idsWithStatus(status)) await backend.queue.add(jobId);
    }
  }

  /** A job whose worker died is waiting again: say so, so its stream shows a position again. */
  private async requeued(jobId: string): Promise<void> {
    const { backend } = this.options;
    announce(backend, await backend.ledger.requeued(jobId), true);
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
    if (isFinalStatus(job.status)) {
      // Delivered again after its end was recorded (the end and its history are one step): its worker died
      // before deleting the photo, which goes now.
      if (photoKey) await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
      return;
    }
    if (attempt > maxAttempts || !photoKey) {
      await this.fail(jobId, photoKey, { message: MESSAGES.renderFailed, code: 'render_failed', renderMs: null });
      return;
    }
    const delivery = { attempt, id: randomUUID() };
    const started = await backend.ledger.started(jobId, delivery);
    // Ended meanwhile: nothing for this delivery to do.
    if (!started) return;
    announce(backend, started, true);

    const stopTimer = metrics.renderSeconds.startTimer();
    const startedAt = Date.now();
    let token: string | undefined;
    try {
      const photo = await backend.storage.readPhoto(photoKey);
      const outcome = await pool.render({ photo, blacklabel: job.blacklabel, attempt });
      if (outcome.kind === 'refused') {
        stopTimer({ outcome: 'refused' });
        const refusal = { message: refusalMessage(outcome.code), code: outcome.code, renderMs: Date.now() - startedAt };
        await this.fail(jobId, photoKey, refusal, delivery.id);
        return;
      }
      // A finished render is kept through a full disk or a database restart: both writes wait and try again.
      const saved = await this.persist(() =>
        backend.storage.saveResult(asBuffer(outcome.jpeg), asBuffer(outcome.story.jpeg), asBuffer(outcome.plan)),
      );
      token = saved;
      const result = {
        token: saved,
        width: outcome.width,
        height: outcome.height,
        expiresAt: Date.now() + this.options.resultTtlMs,
        renderMs: Date.now() - startedAt,
      };
      const completed = await this.persist(() => backend.ledger.completed(jobId, delivery.id, result));
      if (!completed) {
        // The queue gave this delivery up for dead (its lock ran out in an outage) and another one took the
        // job over, or has finished it: this render is not the job's, and its artwork goes.
        stopTimer({ outcome: 'superseded' });
        log.warn({ jobId, attempt }, 'render superseded by a later delivery of its job; not kept');
        return;
      }
      token = undefined;
      stopTimer({ outcome: 'completed' });
      metrics.jobsFinished.inc({ status: 'completed' });
      announce(backend, completed);
      log.info({ jobId, attempt, timings: outcome.timings, tiles: outcome.tiles }, 'job completed');
    } catch (error) {
      stopTimer({ outcome: 'error' });
      health.report(error);
      if (error instanceof RenderTimeoutError) {
        log.warn({ jobId, attempt, timeoutMs: error.timeoutMs }, 'render passed its deadline; its thread was replaced');
      } else {
        log.warn({ jobId, attempt, err: error }, 'render attempt failed');
      }
      if (attempt >= maxAttempts) {
        const failure = { message: MESSAGES.renderFailed, code: 'render_failed', renderMs: null } as const;
        await this.fail(jobId, photoKey, failure, delivery.id);
        return;
      }
      await this.attempt(jobId, 'job not re-marked queued', async () => {
        announce(backend, await backend.ledger.requeued(jobId, delivery.id), true);
      });
      throw error;
    } finally {
      // An artwork whose job could not be marked completed belongs to nobody: it goes now (or at the sweep).
      const orphan = token;
      if (orphan) await this.attempt(jobId, 'orphan artwork not deleted', () => backend.storage.deleteResult(orphan));
    }
    // Completed: the photo goes now; if its delete fails, the sweep deletes photos of ended jobs.
    await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
  }

  /**
   * A write that settles a job's outcome: while storage refuses writes or the database or Redis is away,
   * it waits for them and tries again, rather than throwing away a render. Other errors, and closing, throw.
   */
  private async persist<T>(write: () => Promise<T>): Promise<T> {
    const { health } = this.options;
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (!health.report(error) || health.isClosed) throw error;
        this.options.log.warn({ error: describe(error) }, 'job outcome waits for storage to take it');
        await health.whenWritable();
      }
    }
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

  /** Fails the job (held by `deliveryId`, when a delivery started it); the photo goes once the end is recorded. */
  private async fail(
    jobId: string,
    photoKey: string | null,
    failure: Omit<JobFailure, 'expiresAt'>,
    deliveryId?: string,
  ): Promise<void> {
    const { backend, metrics, resultTtlMs } = this.options;
    // Waits through a storage fault; any other failed write reaches the queue, which delivers the job again.
    const ended = await this.persist(() =>
      backend.ledger.failed(jobId, { ...failure, expiresAt: Date.now() + resultTtlMs }, deliveryId),
    );
    if (!ended) return;
    if (photoKey) await this.attempt(jobId, 'photo not deleted', () => this.dropPhoto(jobId, photoKey));
    metrics.jobsFinished.inc({ status: 'failed' });
    announce(backend, ended);
  }

  /** The uploaded photo is deleted as soon as its job ends (docs/architecture.md#data-and-retention). */
  private async dropPhoto(jobId: string, photoKey: string): Promise<void> {
    const { backend } = this.options;
    await backend.storage.deletePhoto(photoKey);
    await backend.ledger.photoDeleted([jobId], Date.now());
  }
}
