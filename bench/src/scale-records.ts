import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PHOTOS, RESULTS } from '../../apps/server/src/services/storage-names.js';

/** What a scale-mode run left behind in PostgreSQL and the shared storage directory. */

export interface JobRow {
  id: string;
  status: string;
  resultToken: string | null;
}

export interface HistoryRow {
  jobId: string;
  /** Epoch ms the job's end was recorded, null while it runs. */
  endedAt: number | null;
  renderMs: number | null;
  outcome: 'completed' | 'failed' | null;
}

export async function readRecords(databaseUrl: string): Promise<{ jobs: JobRow[]; history: HistoryRow[] }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const jobs = await db.query<{ id: string; status: string; result_token: string | null }>(
      'SELECT id, status, result_token FROM jobs',
    );
    const history = await db.query<{
      job_id: string;
      ended_at: string | null;
      render_ms: string | null;
      outcome: HistoryRow['outcome'];
    }>('SELECT job_id, ended_at, render_ms, outcome FROM job_history');
    // BIGINT columns arrive as strings.
    const number = (value: string | null) => (value === null ? null : Number(value));
    return {
      jobs: jobs.rows.map((row) => ({ id: row.id, status: row.status, resultToken: row.result_token })),
      history: history.rows.map((row) => ({
        jobId: row.job_id,
        endedAt: number(row.ended_at),
        renderMs: number(row.render_ms),
        outcome: row.outcome,
      })),
    };
  } finally {
    await db.end();
  }
}

export interface Unowned {
  /** Photos of no job, or of a job that has ended. */
  photos: number;
  /** Artworks (a token's post and story files) no job holds. */
  results: number;
  /** Writes cut short, left in `tmp/`. */
  partials: number;
}

const listed = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** Files nobody owns; count them with every process stopped, so no write is under way. */
export function filesWithoutRecord(storageDir: string, jobs: JobRow[]): Unowned {
  const alive = new Set(jobs.filter((job) => !['completed', 'failed'].includes(job.status)).map((job) => job.id));
  const held = new Set(jobs.map((job) => job.resultToken));
  const photos = listed(join(storageDir, PHOTOS.folder)).filter((name) => !alive.has(PHOTOS.keyOf(name) ?? ''));
  const tokens = new Set(listed(join(storageDir, RESULTS.folder)).map((name) => RESULTS.keyOf(name) ?? name));
  return {
    photos: photos.length,
    results: [...tokens].filter((token) => !held.has(token)).length,
    partials: listed(join(storageDir, 'tmp')).length,
  };
}
