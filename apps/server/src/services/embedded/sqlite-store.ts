import { randomUUID } from 'node:crypto';
import { JOB_STATUSES, type JobStatus, type RefusalCode } from '@selfie-mosaic/contract';
import type {
  ConsentInput,
  ConsentRecord,
  ConsentStore,
  JobRecord,
  JobStore,
  NewJob,
  PageviewInput,
  PageviewStore,
} from '../types.js';
import type { Db } from './database.js';

interface JobRow {
  id: string;
  session_id: string;
  blacklabel: number;
  status: JobStatus;
  attempts: number;
  error_message: string | null;
  error_code: RefusalCode | null;
  photo_key: string | null;
  result_token: string | null;
  width: number | null;
  height: number | null;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
}

function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    blacklabel: row.blacklabel === 1,
    status: row.status,
    attempts: row.attempts,
    errorMessage: row.error_message,
    errorCode: row.error_code,
    photoKey: row.photo_key,
    resultToken: row.result_token,
    width: row.width,
    height: row.height,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

/** Jobs in SQLite. Every statement is prepared once: polls hit `get` thousands of times a second. */
export class SqliteJobStore implements JobStore {
  private readonly statements;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO jobs (id, session_id, blacklabel, status, photo_key, created_at, updated_at)
         VALUES (@id, @sessionId, @blacklabel, 'pending', @photoKey, @now, @now)`,
      ),
      get: db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?'),
      queued: db.prepare(`UPDATE jobs SET status = 'queued', updated_at = ? WHERE id = ? AND status = ?`),
      processing: db.prepare(`UPDATE jobs SET status = 'processing', attempts = ?, updated_at = ? WHERE id = ?`),
      completed: db.prepare(
        `UPDATE jobs SET status = 'completed', result_token = @token, width = @width, height = @height,
         error_message = NULL, error_code = NULL, expires_at = @expiresAt, updated_at = @now WHERE id = @id`,
      ),
      failed: db.prepare(
        `UPDATE jobs SET status = 'failed', error_message = @message, error_code = @code,
         expires_at = @expiresAt, updated_at = @now WHERE id = @id`,
      ),
      clearPhoto: db.prepare('UPDATE jobs SET photo_key = NULL WHERE id = ?'),
      withStatus: db.prepare<[string], { id: string }>('SELECT id FROM jobs WHERE status = ? ORDER BY created_at'),
      byToken: db.prepare<[string, number], JobRow>(
        `SELECT * FROM jobs WHERE result_token = ? AND status = 'completed' AND expires_at > ?`,
      ),
      expired: db.prepare<[number, number], JobRow>(
        'SELECT * FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?',
      ),
      delete: db.prepare('DELETE FROM jobs WHERE id = ?'),
      counts: db.prepare<[], { status: JobStatus; n: number }>(
        'SELECT status, COUNT(*) AS n FROM jobs GROUP BY status',
      ),
    };
    this.deleteMany = db.transaction((ids: readonly string[]) => {
      for (const id of ids) this.statements.delete.run(id);
    });
  }

  private readonly deleteMany: (ids: readonly string[]) => void;

  async create(job: NewJob): Promise<JobRecord> {
    this.statements.insert.run({ ...job, blacklabel: job.blacklabel ? 1 : 0, now: this.now() });
    return (await this.get(job.id)) as JobRecord;
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const row = this.statements.get.get(id);
    return row && toRecord(row);
  }

  async markQueued(id: string, from: 'pending' | 'processing'): Promise<void> {
    this.statements.queued.run(this.now(), id, from);
  }

  async markProcessing(id: string, attempt: number): Promise<void> {
    this.statements.processing.run(attempt, this.now(), id);
  }

  async markCompleted(id: string, result: { token: string; width: number; height: number; expiresAt: number }) {
    this.statements.completed.run({ id, ...result, now: this.now() });
  }

  async markFailed(id: string, failure: { message: string; code: RefusalCode | null; expiresAt: number }) {
    this.statements.failed.run({ id, ...failure, now: this.now() });
  }

  async clearPhoto(id: string): Promise<void> {
    this.statements.clearPhoto.run(id);
  }

  async idsWithStatus(status: JobStatus): Promise<string[]> {
    return this.statements.withStatus.all(status).map((row) => row.id);
  }

  async findByResultToken(token: string, now: number): Promise<JobRecord | undefined> {
    const row = this.statements.byToken.get(token, now);
    return row && toRecord(row);
  }

  async expired(now: number, limit: number): Promise<JobRecord[]> {
    return this.statements.expired.all(now, limit).map(toRecord);
  }

  async delete(ids: readonly string[]): Promise<void> {
    this.deleteMany(ids);
  }

  async countByStatus(): Promise<Record<JobStatus, number>> {
    const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
    for (const { status, n } of this.statements.counts.all()) counts[status] = n;
    return counts;
  }
}

export class SqliteConsentStore implements ConsentStore {
  private readonly insert;
  private readonly affirmative;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO consents (id, session_id, country_iso, language, question_answer, consent_given, created_at)
       VALUES (@id, @sessionId, @countryIso, @language, @questionAnswer, @consentGiven, @createdAt)`,
    );
    this.affirmative = db.prepare<[string], { found: number }>(
      `SELECT 1 AS found FROM consents
       WHERE session_id = ? AND consent_given = 1 AND question_answer = 'yes' LIMIT 1`,
    );
  }

  async add(consent: ConsentInput): Promise<ConsentRecord> {
    const record: ConsentRecord = { ...consent, id: randomUUID(), createdAt: new Date().toISOString() };
    this.insert.run({ ...record, consentGiven: record.consentGiven ? 1 : 0 });
    return record;
  }

  async hasConsent(sessionId: string): Promise<boolean> {
    return this.affirmative.get(sessionId) !== undefined;
  }
}

export class SqlitePageviewStore implements PageviewStore {
  private readonly insert;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO pageviews (country_iso, language, page_path, browser_family, created_at)
       VALUES (@countryIso, @language, @pagePath, @browserFamily, @createdAt)`,
    );
  }

  async add(pageview: PageviewInput): Promise<void> {
    this.insert.run({ ...pageview, createdAt: new Date().toISOString() });
  }
}
