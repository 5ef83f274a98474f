import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { QueueStatus } from '@selfie-mosaic/contract';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { Cluster, follow, metric } from '../../test/cluster.js';
import { facePhoto } from '../../test/fixtures.js';
import { Client } from '../../test/harness.js';
import { createDatabase } from '../../test/services.js';
import { RESULT_FILES } from '../storage-names.js';

/**
 * Scale mode on one machine: 2 API and 2 worker processes of the built server sharing Redis, PostgreSQL
 * and a storage directory. 200 jobs go in through both APIs; a worker is killed (SIGKILL) mid-job and an
 * API process is killed while streams are open. Every job must complete exactly once, and the clients of
 * the dead API must carry on against the other one.
 */

const JOBS = 200;

let cluster: Cluster | undefined;
let storageDir = '';

afterAll(async () => {
  await cluster?.stopAll();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

it('completes 200 jobs exactly once across 2 APIs and 2 workers, through a killed worker and a killed API', async () => {
  const started = Date.now();
  storageDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-shared-'));
  const shared = {
    REDIS_URL: inject('redisUrl'),
    DATABASE_URL: await createDatabase(inject('postgresUrl')),
    QUEUE_NAME: `multi-${randomUUID()}`,
    STORAGE_DIR: storageDir,
    DATA_DIR: storageDir,
    QUEUE_LOCK_TIMEOUT: '3',
    WORKERS: '1',
    RATE_LIMIT_UPLOAD: '1000',
    RATE_LIMIT_CONSENT: '1000',
    // Every simulated visitor connects from this one address.
    CONNECTIONS_PER_IP: '0',
    WEB_DIST: path.join(storageDir, 'no-web-build'),
  };
  const run = new Cluster(shared);
  cluster = run;
  const [apiA, apiB, workerA, workerB] = await Promise.all([
    run.spawn('api A', { ROLE: 'api' }),
    run.spawn('api B', { ROLE: 'api' }),
    run.spawn('worker A', { ROLE: 'worker' }),
    run.spawn('worker B', { ROLE: 'worker' }),
  ]);
  // A worker process answers health and metrics only.
  for (const worker of [workerA, workerB]) {
    expect((await fetch(`${worker.url}/api/queue/position/${randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${worker.url}/metrics`)).status).toBe(200);
  }

  const clients = [await new Client(apiA.url).init(), await new Client(apiB.url).init()];
  const photo = await facePhoto();
  const jobs: { id: string; api: number }[] = [];
  for (let i = 0; i < JOBS; i++) {
    const api = i % 2;
    jobs.push({ id: await (clients[api] as Client).submit(photo), api });
  }
  // Positions are global: both APIs answer the same for the last job (asked at once; retried if a job
  // happened to start between the two answers).
  const last = jobs.at(-1) as { id: string };
  let agreed: QueueStatus | undefined;
  for (let i = 0; i < 10 && !agreed; i++) {
    const [viaA, viaB] = await Promise.all(clients.map((client) => client.status(last.id)));
    if (viaA?.status === 'queued' && viaA.queue_position === viaB?.queue_position) agreed = viaA;
  }
  expect(agreed?.queue_position).toBeGreaterThan(1);

  // Streams on both APIs for every job submitted through A, and for the last 40 through B.
  const followers = jobs
    .filter((job, i) => job.api === 0 || i >= JOBS - 80)
    .map((job) => ({ job, streamApi: job.api, done: follow(job.id, job.api === 0 ? apiA.url : apiB.url, apiB.url) }));

  const completed = async () => metric(apiB.url, 'selfie_mosaic_jobs{status="completed"}');
  while ((await completed()) < 10) await new Promise((resolve) => setTimeout(resolve, 200));
  // Kill a worker while both are rendering (the backlog is long), then bring a new one up.
  while ((await metric(apiB.url, 'selfie_mosaic_jobs{status="processing"}')) < 2) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const killedAt = Date.now();
  await run.kill(workerA);
  const replacement = run.spawn('worker C', { ROLE: 'worker' });

  while ((await completed()) < 30) await new Promise((resolve) => setTimeout(resolve, 200));
  await run.kill(apiA);
  await replacement;

  const outcomes = await Promise.all(followers.map((f) => f.done));
  expect(outcomes.every((o) => o.status === 'completed')).toBe(true);
  // Clients of the dead API resumed on the other one; B's own streams were never interrupted.
  const resumed = followers.filter((_, i) => outcomes[i]?.resumed);
  expect(resumed.length).toBeGreaterThan(0);
  expect(resumed.every((f) => f.streamApi === 0)).toBe(true);
  // API B renders nothing: the progress its streams showed came from the worker processes via Redis.
  const onB = outcomes.filter((_, i) => followers[i]?.streamApi === 1);
  expect(onB.length).toBe(40);
  for (const outcome of onB) expect(outcome.streamed).toEqual(['queued', 'processing', 'completed']);

  const statuses = await Promise.all(jobs.map((job) => (clients[1] as Client).waitUntilFinal(job.id, 900_000)));
  expect(statuses.filter((s) => s.status === 'completed').length).toBe(JOBS);
  const db = new pg.Client({ connectionString: shared.DATABASE_URL });
  await db.connect();
  // Exactly one finished render per job: no job lost, none completed twice (no orphaned artwork either).
  expect([...run.completions.values()].every((n) => n === 1)).toBe(true);
  // Every finished render is logged, but for one the killed worker may have recorded in the instant
  // before it died, between the record's commit and its log line: that job is completed, recorded
  // by the worker's clock just before the kill (the stalled retry finds it completed and leaves it).
  const unlogged = jobs.filter((job) => !run.completions.has(job.id)).map((job) => job.id);
  expect(unlogged.length).toBeLessThanOrEqual(1);
  if (unlogged.length > 0) {
    const {
      rows: [record],
    } = await db.query<{ status: string; updated_at: string }>(
      'SELECT status, updated_at FROM jobs WHERE id = $1',
      unlogged,
    );
    expect(record?.status).toBe('completed');
    expect(Number(record?.updated_at)).toBeGreaterThan(killedAt - 10_000);
    expect(Number(record?.updated_at)).toBeLessThanOrEqual(killedAt + 1_000);
  }
  // Each artwork is three files: the post, its story version and their laying plan.
  expect(readdirSync(path.join(storageDir, 'results')).length).toBe(RESULT_FILES.length * JOBS);
  expect(readdirSync(path.join(storageDir, 'photos'))).toEqual([]);
  // The killed worker (one render at a time) had one job: either it was rendering it, and the job came back
  // (BullMQ's stalled check) counting the lost attempt, or it had just recorded it completed (the unlogged
  // job above), and the stalled retry found it so without a new attempt.
  const { rows } = await db.query<{ n: string }>('SELECT COUNT(*) AS n FROM jobs WHERE attempts >= 2');
  await db.end();
  expect(Number(rows[0]?.n) + unlogged.length).toBeGreaterThanOrEqual(1);
  console.log(`multi-process: ${JOBS} jobs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}, 1_200_000);
