import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MODES, modeEnv } from '../../test/harness.js';
import { migrateToLatest, migrationProvider } from './migrations.js';
import type { Tables } from './schema.js';

async function open(mode: (typeof MODES)[number]): Promise<{ db: Kysely<Tables>; cleanUp: () => void }> {
  if (mode === 'scale') {
    const pool = new pg.Pool({ connectionString: (await modeEnv('scale')).DATABASE_URL });
    return { db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), cleanUp: () => {} };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-migrate-'));
  const database = new Database(path.join(dir, 'db.sqlite'));
  return {
    db: new Kysely<Tables>({ dialect: new SqliteDialect({ database }) }),
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe.each(MODES)('migration 003, %s mode', (mode) => {
  it('starts the funnel counters from the page views and consents recorded before it', async () => {
    const { db, cleanUp } = await open(mode);
    try {
      const migrator = new Migrator({ db: db as Kysely<unknown>, provider: migrationProvider });
      expect((await migrator.migrateTo('002_storage_probe')).error).toBeUndefined();
      const view = (page_path: string, created_at: string, country_iso = 'de') => ({
        country_iso,
        language: 'de',
        page_path,
        browser_family: 'Chrome',
        created_at,
      });
      await db
        .insertInto('pageviews')
        .values([
          view('/de/de/start', '2026-01-05T10:00:00.000Z'),
          view('/de/de/start', '2026-01-05T23:59:59.999Z'),
          view('/de/de/start', '2026-01-06T00:00:00.000Z'),
          view('/at/de/curious', '2026-01-05T10:00:00.000Z', 'at'),
          view('/de/de/photo', '2026-01-05T10:00:00.000Z'),
          view('/de/de/terms', '2026-01-05T10:00:00.000Z'),
          view('/start', '2026-01-05T10:00:00.000Z'),
          view('/de/de/x/start', '2026-01-05T10:00:00.000Z'),
        ])
        .execute();
      const consent = (id: string, question_answer: 'yes' | 'no', consent_given: number) => ({
        id,
        session_id: null,
        country_iso: 'de',
        language: 'de',
        question_answer,
        consent_given,
        created_at: '2026-01-05T12:00:00.000Z',
      });
      await db
        .insertInto('consents')
        .values([consent('a', 'no', 0), consent('b', 'yes', 1), consent('c', 'yes', 1), consent('d', 'yes', 0)])
        .execute();

      await migrateToLatest(db as Kysely<unknown>);
      const rows = await db
        .selectFrom('funnel_daily')
        .selectAll()
        .orderBy('day')
        .orderBy('country_iso')
        .orderBy('step')
        .execute();
      expect(rows.map((row) => ({ ...row, n: Number(row.n) }))).toEqual([
        { day: '2026-01-05', country_iso: 'at', language: 'de', step: 'answered_yes', n: 1 },
        { day: '2026-01-05', country_iso: 'de', language: 'de', step: 'answered_no', n: 1 },
        { day: '2026-01-05', country_iso: 'de', language: 'de', step: 'consented', n: 2 },
        { day: '2026-01-05', country_iso: 'de', language: 'de', step: 'photo_views', n: 1 },
        { day: '2026-01-05', country_iso: 'de', language: 'de', step: 'start_views', n: 2 },
        { day: '2026-01-06', country_iso: 'de', language: 'de', step: 'start_views', n: 1 },
      ]);
    } finally {
      await db.destroy();
      cleanUp();
    }
  });
});

describe.each(MODES)('migration 005, %s mode', (mode) => {
  it('keeps the consents recorded before it, none of them handed off', async () => {
    const { db, cleanUp } = await open(mode);
    try {
      const migrator = new Migrator({ db: db as Kysely<unknown>, provider: migrationProvider });
      expect((await migrator.migrateTo('004_job_delivery')).error).toBeUndefined();
      const before = {
        id: 'before-handoffs',
        session_id: 'session-1700000000000-abcd1234',
        country_iso: 'de',
        language: 'de',
        question_answer: 'yes' as const,
        consent_given: 1,
        created_at: '2026-01-05T12:00:00.000Z',
      };
      await db.insertInto('consents').values(before).execute();
      await migrateToLatest(db as Kysely<unknown>);
      expect(await db.selectFrom('consents').selectAll().execute()).toEqual([{ ...before, handed_off_at: null }]);
      expect(await db.selectFrom('handoffs').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
      cleanUp();
    }
  });
});
