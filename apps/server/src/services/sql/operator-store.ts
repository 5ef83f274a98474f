import type { RefusalCode } from '@selfie-mosaic/contract';
import type { Selectable } from 'kysely';
import type {
  AnalyticsEventInput,
  AnalyticsEventStore,
  ConsentCursor,
  ConsentRecord,
  FunnelCount,
  JobHistoryRecord,
  JobHistoryStore,
  JobOutcome,
  OperatorQueries,
  RecentRender,
} from '../types.js';
import { bumpFunnel, utcDay } from './funnel-counters.js';
import type { Db, JobHistoryTable } from './schema.js';
import { toConsent } from './sql-store.js';

const nullableNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toHistory(row: Selectable<JobHistoryTable>): JobHistoryRecord {
  return {
    jobId: row.job_id,
    consentId: row.consent_id,
    uploadedAt: Number(row.uploaded_at),
    endedAt: nullableNumber(row.ended_at),
    outcome: row.outcome,
    errorCode: row.error_code,
    renderMs: nullableNumber(row.render_ms),
    photoDeletedAt: nullableNumber(row.photo_deleted_at),
    artworkDeletedAt: nullableNumber(row.artwork_deleted_at),
  };
}

export class SqlAnalyticsEventStore implements AnalyticsEventStore {
  constructor(private readonly db: Db) {}

  async add(event: AnalyticsEventInput): Promise<void> {
    const createdAt = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('analytics_events')
        .values({
          event: event.event,
          country_iso: event.countryIso,
          language: event.language,
          browser_family: event.browserFamily,
          created_at: createdAt,
        })
        .execute();
      const step = event.event === 'download' ? 'downloads' : 'shares';
      await bumpFunnel(trx, { day: utcDay(createdAt), countryIso: event.countryIso, language: event.language, step });
    });
  }
}

export class SqlJobHistoryStore implements JobHistoryStore {
  constructor(private readonly db: Db) {}

  async recordUpload(jobId: string, consent: ConsentRecord, at: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('job_history')
        .values({
          job_id: jobId,
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
      const key = { day: utcDay(at), countryIso: consent.countryIso, language: consent.language };
      await bumpFunnel(trx, { ...key, step: 'uploads' });
    });
  }

  async forget(jobId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
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

  async recordEnd(
    jobId: string,
    end: { outcome: JobOutcome; errorCode: RefusalCode | null; renderMs: number | null; at: number },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('job_history')
        .set({ ended_at: end.at, outcome: end.outcome, error_code: end.errorCode, render_ms: end.renderMs })
        .where('job_id', '=', jobId)
        .where('ended_at', 'is', null)
        .returning(['country_iso', 'language'])
        .executeTakeFirst();
      if (!row || end.outcome !== 'completed') return;
      await bumpFunnel(trx, {
        day: utcDay(end.at),
        countryIso: row.country_iso,
        language: row.language,
        step: 'artworks',
      });
    });
  }

  async photosDeleted(jobIds: readonly string[], at: number): Promise<void> {
    if (jobIds.length === 0) return;
    await this.db
      .updateTable('job_history')
      .set({ photo_deleted_at: at })
      .where('job_id', 'in', jobIds)
      .where('photo_deleted_at', 'is', null)
      .execute();
  }

  async artworksDeleted(jobIds: readonly string[], at: number): Promise<void> {
    if (jobIds.length === 0) return;
    await this.db
      .updateTable('job_history')
      .set({ artwork_deleted_at: at })
      .where('job_id', 'in', jobIds)
      .where('artwork_deleted_at', 'is', null)
      .execute();
  }
}

export class SqlOperatorQueries implements OperatorQueries {
  constructor(private readonly db: Db) {}

  async endedSince(since: number) {
    const rows = await this.db
      .selectFrom('job_history')
      .select(['outcome', 'error_code', 'render_ms'])
      .where('ended_at', '>=', since)
      .execute();
    return rows.map((row) => ({
      outcome: row.outcome,
      errorCode: row.error_code,
      renderMs: nullableNumber(row.render_ms),
    }));
  }

  async recentRenders(since: number, limit: number): Promise<RecentRender[]> {
    const rows = await this.db
      .selectFrom('job_history')
      .select(['ended_at', 'render_ms'])
      .where('ended_at', '>=', since)
      .where('render_ms', 'is not', null)
      .orderBy('ended_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ endedAt: Number(row.ended_at), renderMs: Number(row.render_ms) }));
  }

  async funnelCounts(fromDay: string, toDay: string): Promise<FunnelCount[]> {
    const rows = await this.db
      .selectFrom('funnel_daily')
      .selectAll()
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute();
    return rows.map((row) => ({
      day: row.day,
      countryIso: row.country_iso,
      language: row.language,
      step: row.step,
      n: Number(row.n),
    }));
  }

  async consentsPage(
    range: { from: string; to: string },
    after: ConsentCursor | undefined,
    limit: number,
  ): Promise<ConsentRecord[]> {
    let query = this.db
      .selectFrom('consents')
      .selectAll()
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.to);
    if (after) {
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(limit).execute();
    return rows.map(toConsent);
  }

  async jobsOfConsents(consentIds: readonly string[]): Promise<JobHistoryRecord[]> {
    if (consentIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('job_history')
      .selectAll()
      .where('consent_id', 'in', consentIds)
      .orderBy('uploaded_at')
      .execute();
    return rows.map(toHistory);
  }
}
