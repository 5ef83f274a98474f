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

/**
 * The embedded database cannot be used at start (damaged, unreadable, not a file): its message is one
 * line for the operator, naming the file and what to do, and the server stops without a stack trace.
 */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

const DAMAGED = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

function openError(file: string, error: unknown): DatabaseOpenError {
  // The migrator wraps the driver's error: its code is on the cause.
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = String((cause as { code?: unknown }).code ?? '');
  const reason = cause instanceof Error ? cause.message : String(cause);
  const advice = DAMAGED.has(code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1'))
    ? 'Restore it from a backup, or move it aside (keep it: it holds the consent records) to start with an empty one.'
    : "Check that it is a file the server's user can read and write, in a folder it can write to (DATA_DIR), on a disk with free space.";
  return new DatabaseOpenError(`Cannot use the database ${file} (${reason}). ${advice}`, { cause: error });
}

/** Opens (creating if needed) the embedded database under `dataDir` in WAL mode, schema up to date. */
export async function openSqlite(dataDir: string): Promise<{ db: Db; sqlite: SqliteConnection }> {
  const file = path.resolve(dataDir, 'selfie-mosaic.sqlite');
  let sqlite: SqliteConnection | undefined;
  try {
    mkdirSync(dataDir, { recursive: true });
    sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    // Retention means gone from the disk too: a deleted row's bytes are zeroed, not left in a free page.
    sqlite.pragma('secure_delete = ON');
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }) });
    await migrateToLatest(db as Kysely<unknown>);
    return { db, sqlite };
  } catch (error) {
    sqlite?.close();
    throw openError(file, error);
  }
}

/**
 * Bounds on every PostgreSQL call, so a database that went away (a crash, a failover, a network cut)
 * fails the call within seconds instead of holding a request or a job: connecting, and waiting for an
 * answer. Keep-alive finds a connection cut silently. The longest statement the app runs is a batch of
 * the retention sweep or the regulator export, far below the query bound.
 */
const PG_BOUNDS = { connectionTimeoutMillis: 3000, query_timeout: 10_000, keepAlive: true } as const;

/**
 * Connects to PostgreSQL (`DATABASE_URL`) with a small pool and brings the schema up to date. A pooled
 * connection that breaks (the server restarting) is reported to `onError` and replaced by the pool on
 * next use; without a listener, node-postgres would throw it and end the process.
 */
export async function openPostgres(
  url: string,
  { poolSize = 10, onError = () => {} }: { poolSize?: number; onError?: (error: Error) => void } = {},
): Promise<Db> {
  // Only scale mode needs the PostgreSQL client: an embedded process never loads it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: poolSize, ...PG_BOUNDS });
  pool.on('error', onError);
  // A connection can also break while checked out between two statements (inside a transaction): its
  // client then emits the error itself, which without a listener would end the process too. The
  // statement that was running, or the next one, fails on its own.
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
