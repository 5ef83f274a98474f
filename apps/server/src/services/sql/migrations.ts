import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';

/**
 * Numbered migrations for SQLite and PostgreSQL alike, applied once each by Kysely's Migrator (which
 * records them in `kysely_migration` and locks against concurrent runs, e.g. several processes starting
 * at once). Never edit a shipped migration: add the next one.
 */
const MIGRATIONS: Record<string, Migration> = {
  // `ifNotExists`: embedded databases created before the Migrator (PRAGMA user_version 1) already have these.
  '001_jobs_consents_pageviews': {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('jobs')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('blacklabel', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error_message', 'text')
        .addColumn('error_code', 'text')
        .addColumn('photo_key', 'text')
        .addColumn('result_token', 'text', (c) => c.unique())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .execute();
      await db.schema.createIndex('jobs_status').ifNotExists().on('jobs').columns(['status', 'created_at']).execute();
      await db.schema
        .createIndex('jobs_expires_at')
        .ifNotExists()
        .on('jobs')
        .column('expires_at')
        .where('expires_at', 'is not', null)
        .execute();

      await db.schema
        .createTable('consents')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text')
        .addColumn('country_iso', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('question_answer', 'text', (c) => c.notNull())
        .addColumn('consent_given', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('consents_session').ifNotExists().on('consents').column('session_id').execute();

      await db.schema
        .createTable('pageviews')
        .ifNotExists()
        // SQLite's INTEGER PRIMARY KEY is its rowid; PostgreSQL needs an identity column for the same.
        .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
        .addColumn('country_iso', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('page_path', 'text', (c) => c.notNull())
        .addColumn('browser_family', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // One row rewritten by the storage health probe: a committed write proves the database takes writes.
  '002_storage_probe': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('storage_probe')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('probed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // The operators' records (docs/architecture.md#operators): what each job did and when its files were deleted,
  // kept after the job row is swept; downloads and shares; per-day funnel counters the dashboard reads.
  '003_job_history_events_funnel': {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('job_history')
        .addColumn('job_id', 'text', (c) => c.primaryKey())
        .addColumn('consent_id', 'text')
        .addColumn('country_iso', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('outcome', 'text')
        .addColumn('error_code', 'text')
        .addColumn('render_ms', 'integer')
        .addColumn('photo_deleted_at', 'bigint')
        .addColumn('artwork_deleted_at', 'bigint')
        .execute();
      // The export fetches the jobs of a batch of consents; the live figures read the jobs ended lately.
      await db.schema.createIndex('job_history_consent').on('job_history').column('consent_id').execute();
      await db.schema.createIndex('job_history_ended_at').on('job_history').column('ended_at').execute();
      // The export walks consents in (created_at, id) order, a batch at a time.
      await db.schema.createIndex('consents_created_at').on('consents').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('analytics_events')
        .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('country_iso', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('browser_family', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('funnel_daily')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('country_iso', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('funnel_daily_pk', ['day', 'country_iso', 'language', 'step'])
        .execute();
      // Counters for what was recorded before them: page views by screen, answers and consents.
      await sql`
        INSERT INTO funnel_daily (day, country_iso, language, step, n)
        SELECT substr(created_at, 1, 10), country_iso, language,
          CASE
            WHEN page_path LIKE '%/start' THEN 'start_views'
            WHEN page_path LIKE '%/curious' THEN 'answered_yes'
            ELSE 'photo_views'
          END,
          count(*)
        FROM pageviews
        WHERE (page_path LIKE '/%/%/start' OR page_path LIKE '/%/%/curious' OR page_path LIKE '/%/%/photo')
          AND page_path NOT LIKE '/%/%/%/%'
        GROUP BY 1, 2, 3, 4
      `.execute(db);
      await sql`
        INSERT INTO funnel_daily (day, country_iso, language, step, n)
        SELECT substr(created_at, 1, 10), country_iso, language,
          CASE WHEN question_answer = 'no' THEN 'answered_no' ELSE 'consented' END,
          count(*)
        FROM consents
        WHERE question_answer = 'no' OR (question_answer = 'yes' AND consent_given = 1)
        GROUP BY 1, 2, 3, 4
      `.execute(db);
    },
  },
  // The job's ledger: which delivery of the queue holds a job in processing, so that only that one records
  // its end (a delivery given up for dead during an outage may still finish its render).
  '004_job_delivery': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('delivery', 'text').execute();
    },
  },
  // Desktop → phone hand-offs, and on the consent the first time a phone took the visit over under it.
  '005_handoffs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('handoffs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // Unique: a claim finds its hand-off by the hash alone. Used and expired tokens are NULL (not unique).
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('consent_id', 'text', (c) => c.notNull())
        .addColumn('artwork_job_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('claim_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('follow_expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('handoffs_follow_expires_at').on('handoffs').column('follow_expires_at').execute();
      await db.schema.alterTable('consents').addColumn('handed_off_at', 'text').execute();
    },
  },
};

/** The migrations in order, for Kysely's Migrator (and tests that stop at an earlier one). */
export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
