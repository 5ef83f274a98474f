import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter } from 'kysely';

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
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
