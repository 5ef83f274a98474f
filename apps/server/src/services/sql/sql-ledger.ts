import type { JobStatus } from '@selfie-mosaic/contract';
import type { Transaction, UpdateResult } from 'kysely';
import type {
  ConsentRecord,
  Delivery,
  JobEvent,
  JobFailure,
  JobLedger,
  JobRecord,
  JobResult,
  NewJob,
} from '../types.js';
import { bumpFunnel, utcDay } from './funnel-counters.js';
import type { Db, Tables } from './schema.js';
import { toRecord } from './sql-store.js';

/** Statuses a job is still alive in: a transition to an end applies only from these. */
const ALIVE: JobStatus[] = ['pending', 'queued', 'processing'];

const changed = (result: UpdateResult | undefined) => Number(result?.numUpdatedRows ?? 0) > 0;

function event(jobId: string, status: JobStatus, failure?: JobFailure): JobEvent {
  return { jobId, status, errorMessage: failure?.message ?? null, errorCode: failure?.code ?? null };
}

/**
 * The job ledger in SQLite or PostgreSQL through one set of Kysely queries. Each transition is one
 * transaction whose first statement is the job row's conditional update: when the job is not in a state the
 * transition applies to, nothing is written at all, and the caller hears so (undefined).
 */
export class SqlJobLedger implements JobLedger {
  private lastCreatedAt = 0;

  constructor(
    private readonly db: Db,
    // Read through Date.now at each call, so a test's fake clock reaches it.
    private readonly now: () => number = () => Date.now(),
  ) {}

  async accepted(job: NewJob, consent: ConsentRecord): Promise<JobRecord> {
    // Strictly increasing within a process, so jobs accepted in the same millisecond keep their order.
    const at = Math.max(this.now(), this.lastCreatedAt + 1);
    this.lastCreatedAt = at;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('jobs')
        .values({
          id: job.id,
          session_id: job.sessionId,
          blacklabel: job.blacklabel ? 1 : 0,
          status: 'pending',
          photo_key: job.photoKey,
          error_message: null,
          error_code: null,
          result_token: null,
          width: null,
          height: null,
          created_at: at,
          updated_at: at,
          expires_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // The job's lasting record (docs/architecture.md#operators): under which consent, in which market.
      await trx
        .insertInto('job_history')
        .values({
          job_id: job.id,
          consent_id: consent.id,
          country_iso: consent.countryIso,
          language: consent.language,
          uploaded_at: at,
          ended_at: null,
          outcome: null,
          error_code: null,
          render_ms: null,
          photo_deleted_at: null,
          artwork_deleted_at: null,
        })
        .execute();
      await bumpFunnel(trx, {
        day: utcDay(at),
        countryIso: consent.countryIso,
        language: consent.language,
        step: 'uploads',
      });
      return toRecord(row);
    });
  }

  async withdrawn(jobId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('jobs').where('id', '=', jobId).execute();
      const row = await trx
        .deleteFrom('job_history')
        .where('job_id', '=', jobId)
        .returning(['country_iso', 'language', 'uploaded_at'])
        .executeTakeFirst();
      if (!row) return;
      const key = { day: utcDay(Number(row.uploaded_at)), countryIso: row.country_iso, language: row.language };
      await bumpFunnel(trx, { ...key, step: 'uploads' }, -1);
    });
  }

  async queued(jobId: string): Promise<JobEvent | undefined> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', updated_at: this.now() })
      .where('id', '=', jobId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return changed(result) ? event(jobId, 'queued') : undefined;
  }

  async started(jobId: string, delivery: Delivery): Promise<JobEvent | undefined> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'processing', attempts: delivery.attempt, delivery: delivery.id, updated_at: this.now() })
      .where('id', '=', jobId)
      // The queue hands a job out once at a time: a delivery of a job still in processing means it gave the
      // earlier one up for dead, and the new one takes the job over.
      .where('status', 'in', ALIVE)
      .executeTakeFirst();
    return changed(result) ? event(jobId, 'processing') : undefined;
  }

  async requeued(jobId: string, deliveryId?: string): Promise<JobEvent | undefined> {
    let update = this.db
      .updateTable('jobs')
      .set({ status: 'queued', delivery: null, updated_at: this.now() })
      .where('id', '=', jobId)
      .where('status', '=', 'processing');
    if (deliveryId !== undefined) update = update.where('delivery', '=', deliveryId);
    return changed(await update.executeTakeFirst()) ? event(jobId, 'queued') : undefined;
  }

  async completed(jobId: string, deliveryId: string, result: JobResult): Promise<JobEvent | undefined> {
    const at = this.now();
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('jobs')
        .set({
          status: 'completed',
          result_token: result.token,
          width: result.width,
          height: result.height,
          error_message: null,
          error_code: null,
          expires_at: result.expiresAt,
          updated_at: at,
        })
        .where('id', '=', jobId)
        .where('status', '=', 'processing')
        .where('delivery', '=', deliveryId)
        .executeTakeFirst();
      if (!changed(updated)) return undefined;
      const counted = await this.recordEnd(trx, jobId, {
        outcome: 'completed',
        errorCode: null,
        renderMs: result.renderMs,
        at,
      });
      if (counted) await bumpFunnel(trx, { day: utcDay(at), ...counted, step: 'artworks' });
      return event(jobId, 'completed');
    });
  }

  async failed(jobId: string, failure: JobFailure, deliveryId?: string): Promise<JobEvent | undefined> {
    const at = this.now();
    return this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('jobs')
        .set({
          status: 'failed',
          error_message: failure.message,
          error_code: failure.code,
          expires_at: failure.expiresAt,
          updated_at: at,
        })
        .where('id', '=', jobId);
      update =
        deliveryId === undefined
          ? update.where('status', 'in', ALIVE)
          : update.where('status', '=', 'processing').where('delivery', '=', deliveryId);
      if (!changed(await update.executeTakeFirst())) return undefined;
      await this.recordEnd(trx, jobId, { outcome: 'failed', errorCode: failure.code, renderMs: failure.renderMs, at });
      return event(jobId, 'failed', failure);
    });
  }

  async photoDeleted(jobIds: readonly string[], at: number): Promise<void> {
    if (jobIds.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('jobs').set({ photo_key: null }).where('id', 'in', jobIds).execute();
      await trx
        .updateTable('job_history')
        .set({ photo_deleted_at: at })
        .where('job_id', 'in', jobIds)
        .where('photo_deleted_at', 'is', null)
        .execute();
    });
  }

  async expired(jobs: readonly JobRecord[], at: number): Promise<void> {
    if (jobs.length === 0) return;
    const ids = (having: (job: JobRecord) => unknown) => jobs.filter(having).map((job) => job.id);
    await this.db.transaction().execute(async (trx) => {
      // The deletion log outlives the job rows: the export proves retention with these times.
      for (const [column, jobIds] of [
        ['artwork_deleted_at', ids((job) => job.resultToken)],
        ['photo_deleted_at', ids((job) => job.photoKey)],
      ] as const) {
        if (jobIds.length === 0) continue;
        await trx
          .updateTable('job_history')
          .set({ [column]: at })
          .where('job_id', 'in', jobIds)
          .where(column, 'is', null)
          .execute();
      }
      await trx
        .deleteFrom('jobs')
        .where(
          'id',
          'in',
          jobs.map((job) => job.id),
        )
        .execute();
    });
  }

  /** The job's end in its history; the first end counts. Its market when this end is the one recorded. */
  private async recordEnd(
    trx: Transaction<Tables>,
    jobId: string,
    end: { outcome: 'completed' | 'failed'; errorCode: JobFailure['code']; renderMs: number | null; at: number },
  ): Promise<{ countryIso: string; language: string } | undefined> {
    const row = await trx
      .updateTable('job_history')
      .set({ ended_at: end.at, outcome: end.outcome, error_code: end.errorCode, render_ms: end.renderMs })
      .where('job_id', '=', jobId)
      .where('ended_at', 'is', null)
      .returning(['country_iso', 'language'])
      .executeTakeFirst();
    return row && { countryIso: row.country_iso, language: row.language };
  }
}
