import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isFinalStatus, type QueueStatus } from '@selfie-mosaic/contract';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { Cluster, follow, metric, readyz, type ServerProcess } from '../../test/cluster.js';
import { facePhoto } from '../../test/fixtures.js';
import { Client, newSessionId } from '../../test/harness.js';
import { createDatabase, type RestartableService, startPostgres, startRedis } from '../../test/services.js';
import { RESULT_FILES, RESULTS } from '../storage-names.js';

/**
 * Scale mode through its own dependencies' faults, as an operator would meet them on launch day: 2 API and
 * 2 worker processes on a Redis (append-only file, as docker-compose.yml runs it) and a PostgreSQL of the
 * test's own, while visitors keep arriving. Redis is SIGKILLed and restarted, PostgreSQL is stopped
 * immediately (a crash as its clients see it) and restarted, then a worker whose renders hang joins, and a
 * worker and an API process are killed.
 * No surviving process may exit; every answer is 503 or an ordinary one; readiness follows the
 * dependencies; every accepted job completes exactly once with its artwork, and no file outlives its record.
 */

const OUTAGE_MS = 4000;
const DEADLINE_PASSED = 'render passed its deadline; its thread was replaced';

const services: RestartableService[] = [];
let cluster: Cluster | undefined;
let storageDir = '';

afterAll(async () => {
  await cluster?.stopAll();
  await Promise.all(services.map((service) => service.stop()));
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every HTTP answer the visitors got, by status; a connection refused by a killed process is not an answer. */
class Answers {
  readonly byStatus = new Map<number, number>();
  note(status: number): number {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    return status;
  }
  /** Statuses of 500 and above other than 503. */
  serverErrors(): number[] {
    return [...this.byStatus.keys()].filter((status) => status >= 500 && status !== 503);
  }
}

/**
 * Visitors arriving one after another through the live APIs: consent, upload, then polls until the job
 * is final. A refused step (503, 429) is tried again a moment later, as the web app does.
 */
class Visitors {
  readonly accepted = new Map<string, QueueStatus['status']>();
  private stopped = false;
  private readonly running: Promise<void>[] = [];

  constructor(
    private readonly apis: () => ServerProcess[],
    private readonly answers: Answers,
    private readonly photo: Buffer,
  ) {}

  start(everyMs: number): void {
    this.running.push(
      (async () => {
        for (let i = 0; !this.stopped; i++) {
          this.running.push(this.visit(i).catch(() => {}));
          await sleep(everyMs);
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private api(i: number): string {
    const live = this.apis();
    return (live[i % live.length] as ServerProcess).url;
  }

  /** One visitor; gives up (stays unaccepted) after a few refused tries, as a real one might. */
  private async visit(i: number): Promise<void> {
    for (let attempt = 0; attempt < 5 && !this.stopped; attempt++) {
      const jobId = await this.upload(i + attempt);
      if (jobId) {
        this.accepted.set(jobId, 'queued');
        return this.pollUntilFinal(jobId, i);
      }
      await sleep(1000);
    }
  }

  private async upload(i: number): Promise<string | undefined> {
    try {
      const client = await new Client(this.api(i)).init();
      const sessionId = newSessionId();
      if (this.answers.note((await client.consent(sessionId)).status) !== 201) return undefined;
      const response = await client.upload({ user_session_id: sessionId }, { bytes: this.photo });
      this.answers.note(response.status);
      const body = (await response.json()) as { job_id?: string };
      return response.status === 202 ? body.job_id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Gives up after a while, so a job that never ends fails the test's checks instead of hanging it. */
  private async pollUntilFinal(jobId: string, i: number): Promise<void> {
    const deadline = Date.now() + 300_000;
    for (let n = i; Date.now() < deadline; n++) {
      await sleep(500);
      try {
        const response = await fetch(`${this.api(n)}/api/queue/position/${jobId}`, {
          signal: AbortSignal.timeout(10_000),
        });
        this.answers.note(response.status);
        if (response.status !== 200) continue;
        const { status } = (await response.json()) as QueueStatus;
        this.accepted.set(jobId, status);
        if (isFinalStatus(status)) return;
      } catch {
        // The API just died or the answer took too long: the next poll goes to the other one.
      }
    }
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`${what}: not within ${timeoutMs} ms (${lastReadiness}) ${cluster?.stderr.slice(-2000)}`);
    }
    await sleep(100);
  }
  return Date.now() - started;
}

let lastReadiness = '';
const allReady = (procs: ServerProcess[], status: number) => async () => {
  const statuses = await Promise.all(procs.map(readyz));
  lastReadiness = procs
    .map(
      (p, i) => `${p.name}: ${statuses[i] || `no answer (exit ${p.child.exitCode ?? p.child.signalCode ?? 'none'})`}`,
    )
    .join(', ');
  return statuses.every((s) => s === status);
};

it('rides out Redis and PostgreSQL crashes, hung renders, a killed worker and a killed API, losing and repeating nothing', async () => {
  const [redis, postgres] = await Promise.all([startRedis({ appendOnly: true }), startPostgres({ durable: true })]);
  services.push(redis, postgres);
  storageDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-chaos-'));
  const databaseUrl = await createDatabase(postgres.url);
  const run = new Cluster({
    REDIS_URL: redis.url,
    DATABASE_URL: databaseUrl,
    QUEUE_NAME: `chaos-${randomUUID()}`,
    STORAGE_DIR: storageDir,
    DATA_DIR: storageDir,
    QUEUE_LOCK_TIMEOUT: '3',
    SWEEP_INTERVAL: '2',
    WORKERS: '1',
    WARM_UP_RENDERS: '1',
    RATE_LIMIT_UPLOAD: '10000',
    RATE_LIMIT_CONSENT: '10000',
    CONNECTIONS_PER_IP: '0',
    WEB_DIST: path.join(storageDir, 'no-web-build'),
  });
  cluster = run;
  const [apiA, apiB, workerA] = await Promise.all([
    run.spawn('api A', { ROLE: 'api' }),
    run.spawn('api B', { ROLE: 'api' }),
    run.spawn('worker A', { ROLE: 'worker' }),
    run.spawn('worker B', { ROLE: 'worker' }),
  ]);
  const live = () => run.processes.filter((p) => !p.killed);
  const liveApis = () => live().filter((p) => p.name.startsWith('api'));
  const answers = new Answers();
  const visitors = new Visitors(liveApis, answers, await facePhoto());
  visitors.start(400);
  const completed = () => [...visitors.accepted.values()].filter((s) => s === 'completed').length;
  await until('first artworks', async () => completed() >= 5, 120_000);

  const timeline: Record<string, number> = {};
  for (const dependency of [
    { name: 'redis', service: redis },
    { name: 'postgres', service: postgres },
  ]) {
    await dependency.service.crash();
    const crashedAt = Date.now();
    // Every process notices within seconds and says it is not ready.
    timeline[`${dependency.name} noticed`] = await until(
      `${dependency.name} down: every /readyz 503`,
      allReady(live(), 503),
      15_000,
    );
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - crashedAt)));
    await dependency.service.restart();
    // Everything resumes by itself: no restart of any process.
    timeline[`${dependency.name} ready again`] = await until(
      `${dependency.name} back: every /readyz 200`,
      allReady(live(), 200),
      60_000,
    );
    const before = completed();
    await until(`artworks after ${dependency.name} came back`, async () => completed() >= before + 3, 120_000);
  }

  // A worker whose every first render hangs: each is stopped at the deadline and its job retried.
  const hanging = await run.spawn('worker D (renders hang)', {
    ROLE: 'worker',
    TEST_HANG_ATTEMPTS: '1',
    RENDER_TIMEOUT: '2',
  });
  await until(
    'a hung render stopped at its deadline',
    async () => run.logLines.some(({ process, line }) => process === hanging.name && line.msg === DEADLINE_PASSED),
    60_000,
  );
  // A worker killed mid-job (while the workers are busy), and an API killed while visitors follow their
  // jobs on its streams.
  await until(
    'workers busy',
    async () => (await metric(apiB.url, 'selfie_mosaic_jobs{status="processing"}')) >= 2,
    30_000,
  ).catch(() => {});
  await run.kill(workerA);
  const replacement = run.spawn('worker C', { ROLE: 'worker' });
  const following = [...visitors.accepted]
    .filter(([, status]) => !isFinalStatus(status))
    .map(([jobId]) => follow(jobId, apiA.url, apiB.url));
  await sleep(500);
  await run.kill(apiA);
  await replacement;
  await visitors.stop();

  // New visitors after recovery get their artwork.
  const after = await new Client(apiB.url).init();
  const late = await after.submit(await facePhoto());
  expect((await after.waitUntilFinal(late, 300_000)).status).toBe('completed');
  for (const outcome of await Promise.all(following)) expect(outcome.status).toBe('completed');

  expect(run.exitedByThemselves().map((p) => p.name)).toEqual([]);
  expect(answers.serverErrors()).toEqual([]);
  expect(answers.byStatus.get(503)).toBeGreaterThan(0);
  // No raw stack traces beside the JSON log.
  expect(run.stderr).not.toMatch(/Unhandled error event|^\s+at /m);

  const accepted = [...visitors.accepted.keys(), late];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ id: string; status: string; result_token: string | null }>(
    'SELECT id, status, result_token FROM jobs',
  );
  await db.end();
  const byId = new Map(rows.map((row) => [row.id, row]));
  // Every accepted job completed with one artwork (its post and its story files), and so did every
  // job with a record (an upload refused after its record was written is queued and rendered all the same).
  for (const jobId of accepted) expect(byId.get(jobId)?.status, jobId).toBe('completed');
  expect(rows.every((row) => row.status === 'completed')).toBe(true);
  const tokens = new Set(rows.map((row) => row.result_token));
  const results = readdirSync(path.join(storageDir, 'results'));
  expect(results.length).toBe(RESULT_FILES.length * rows.length);
  expect(results.every((file) => tokens.has(RESULTS.keyOf(file) ?? ''))).toBe(true);
  expect(readdirSync(path.join(storageDir, 'photos'))).toEqual([]);
  // Completed once: no job's completion was logged twice (a render repeated after a fault).
  expect([...run.completions.values()].every((n) => n === 1)).toBe(true);
  console.log(
    `chaos: ${accepted.length} jobs accepted, answers ${JSON.stringify(Object.fromEntries(answers.byStatus))}, ` +
      `timeline (ms) ${JSON.stringify(timeline)}`,
  );
}, 900_000);
