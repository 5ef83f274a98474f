import type { Selectable } from 'kysely';
import type {
  AnalyticsEventInput,
  AnalyticsEventStore,
  ConsentCursor,
  ConsentRecord,
  FunnelCount,
  JobHistoryRecord,
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
