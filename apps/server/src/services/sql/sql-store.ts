import { randomUUID } from 'node:crypto';
import { type FunnelStep, JOB_STATUSES, type JobStatus } from '@selfie-mosaic/contract';
import type { CompiledQuery, Selectable } from 'kysely';
import type {
  ConsentInput,
  ConsentRecord,
  ConsentStore,
  JobRecord,
  JobStore,
  PageviewInput,
  PageviewStore,
} from '../types.js';
import { bumpFunnel, stepOfPage, utcDay } from './funnel-counters.js';
import type { ConsentsTable, Db, JobsTable } from './schema.js';

type JobRow = Selectable<JobsTable>;

export function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    blacklabel: Number(row.blacklabel) === 1,
    status: row.status,
    attempts: Number(row.attempts),
    errorMessage: row.error_message,
    errorCode: row.error_code,
    photoKey: row.photo_key,
    resultToken: row.result_token,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  };
}

export function toConsent(row: Selectable<ConsentsTable>): ConsentRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    countryIso: row.country_iso,
    language: row.language,
    questionAnswer: row.question_answer,
    consentGiven: Number(row.consent_given) === 1,
    createdAt: row.created_at,
    handedOffAt: row.handed_off_at,
  };
}

/**
 * Jobs in SQLite or PostgreSQL through one set of Kysely queries. The poll's lookup is compiled once
 * (per dialect) and only its parameter changes: polls hit `get` thousands of times a second.
 */
export class SqlJobStore implements JobStore {
  private readonly getById: CompiledQuery<JobRow>;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.getById = db.selectFrom('jobs').selectAll().where('id', '=', '').compile();
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const { rows } = await this.db.executeQuery<JobRow>({ ...this.getById, parameters: [id] });
    const row = rows[0];
    return row && toRecord(row);
  }

  async getMany(ids: readonly string[]): Promise<JobRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
    return rows.map(toRecord);
  }

  async heldResultTokens(tokens: readonly string[]): Promise<Set<string>> {
    if (tokens.length === 0) return new Set();
    const rows = await this.db.selectFrom('jobs').select('result_token').where('result_token', 'in', tokens).execute();
    return new Set(rows.map((row) => row.result_token as string));
  }

  async probeWrite(): Promise<void> {
    const probedAt = this.now();
    await this.db
      .insertInto('storage_probe')
      .values({ id: 1, probed_at: probedAt })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ probed_at: probedAt }))
      .execute();
  }

  async idsWithStatus(status: JobStatus): Promise<string[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', status)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => row.id);
  }

  async findByResultToken(token: string, now: number): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('result_token', '=', token)
      .where('status', '=', 'completed')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async expired(now: number, limit: number): Promise<JobRecord[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async countByStatus(): Promise<Record<JobStatus, number>> {
    const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    for (const { status, n } of rows) counts[status] = Number(n);
    return counts;
  }
}

export class SqlConsentStore implements ConsentStore {
  constructor(private readonly db: Db) {}

  async add(consent: ConsentInput): Promise<ConsentRecord> {
    const record: ConsentRecord = {
      ...consent,
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      handedOffAt: null,
    };
    const step: FunnelStep | undefined =
      record.questionAnswer === 'no' ? 'answered_no' : record.consentGiven ? 'consented' : undefined;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('consents')
        .values({
          id: record.id,
          session_id: record.sessionId,
          country_iso: record.countryIso,
          language: record.language,
          question_answer: record.questionAnswer,
          consent_given: record.consentGiven ? 1 : 0,
          created_at: record.createdAt,
        })
        .execute();
      if (step) {
        const key = { day: utcDay(record.createdAt), countryIso: record.countryIso, language: record.language, step };
        await bumpFunnel(trx, key);
      }
    });
    return record;
  }

  async coveringConsent(sessionId: string): Promise<ConsentRecord | undefined> {
    const row = await this.db
      .selectFrom('consents')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('consent_given', '=', 1)
      .where('question_answer', '=', 'yes')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toConsent(row);
  }
}

export class SqlPageviewStore implements PageviewStore {
  constructor(private readonly db: Db) {}

  async add(pageview: PageviewInput): Promise<void> {
    const createdAt = new Date().toISOString();
    const step = stepOfPage(pageview.pagePath);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('pageviews')
        .values({
          country_iso: pageview.countryIso,
          language: pageview.language,
          page_path: pageview.pagePath,
          browser_family: pageview.browserFamily,
          created_at: createdAt,
        })
        .execute();
      if (step) {
        const key = { day: utcDay(createdAt), countryIso: pageview.countryIso, language: pageview.language, step };
        await bumpFunnel(trx, key);
      }
    });
  }
}
