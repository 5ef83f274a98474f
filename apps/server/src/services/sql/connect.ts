import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import { migrateToLatest } from './migrations.js';
import type { Db, Tables } from './schema.js';

export type SqliteConnection = Database.Database;

/** Distinct statements kept prepared; the app has a few dozen (IN lists vary with their length). */
const STATEMENT_CACHE_LIMIT = 1000;

/**
 * better-sqlite3 for Kysely with each statement prepared once: Kysely's SQLite driver prepares on every
 * call, which costs several times the lookup itself on the poll's hot path.
 */
function withPreparedStatements(sqlite: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Opens (creating if needed) the embedded database under `dataDir` in WAL mode, schema up to date. */
export async function openSqlite(dataDir: string): Promise<{ db: Db; sqlite: SqliteConnection }> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // Retention means gone from the disk too: a deleted row's bytes are zeroed, not left in a free page.
  sqlite.pragma('secure_delete = ON');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }) });
  await migrateToLatest(db as Kysely<unknown>);
  return { db, sqlite };
}

/** Connects to PostgreSQL (`DATABASE_URL`) with a small pool and brings the schema up to date. */
export async function openPostgres(url: string, poolSize = 10): Promise<Db> {
  // Only scale mode needs the PostgreSQL client: an embedded process never loads it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
