import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * Numbered migrations, applied in order once each; `PRAGMA user_version` records the last applied.
 * Never edit a shipped migration: add the next number.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: jobs, their queue entries, consents and page views.
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    blacklabel INTEGER NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    error_message TEXT,
    error_code TEXT,
    photo_key TEXT,
    result_token TEXT UNIQUE,
    width INTEGER,
    height INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE INDEX jobs_status ON jobs (status, created_at);
  CREATE INDEX jobs_expires_at ON jobs (expires_at) WHERE expires_at IS NOT NULL;

  CREATE TABLE queue_entries (
    job_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'active')),
    attempt INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE consents (
    id TEXT PRIMARY KEY,
    session_id TEXT,
    country_iso TEXT NOT NULL,
    language TEXT NOT NULL,
    question_answer TEXT NOT NULL,
    consent_given INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX consents_session ON consents (session_id);

  CREATE TABLE pageviews (
    id INTEGER PRIMARY KEY,
    country_iso TEXT NOT NULL,
    language TEXT NOT NULL,
    page_path TEXT NOT NULL,
    browser_family TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
];

/** Opens (creating if needed) the database under `dataDir` in WAL mode and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1] as string);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
