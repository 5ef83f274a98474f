import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createDatabase,
  type RestartableService,
  startPostgres,
  startRedis,
} from '../../apps/server/src/test/services.js';
import { uploadPhoto } from './jobs-bench.js';
import { OPEN_LIMITS } from './open-limits.js';
import { machine, percentile, table, writeSection } from './report.js';
import { ScaleCluster, until } from './scale-cluster.js';
import { type FaultsRun, HANG_TIMEOUT_S, runFaults, seconds } from './scale-faults.js';
import { filesWithoutRecord, readRecords, type Unowned } from './scale-records.js';
import { IN_FLIGHT, runSurge, SURGE_SECONDS, SURGE_VISITORS, type SurgeRun } from './scale-surge.js';
import { type Answer, describeAnswers, describeSteps, serverErrors } from './scale-visitors.js';

/**
 * Scale mode through its engines' faults and through a surge (issue 24), measured on the built server:
 * 2 `ROLE=api` and 2 `ROLE=worker` processes (one render thread each) on a Redis (append-only file) and a
 * PostgreSQL of the benchmark's own. Writes the "scale-faults" and "surge" sections of BENCHMARKS.md.
 * Each phase stops with an error at its deadline; every process and temporary directory is removed
 * whatever happens, an interrupt (Ctrl-C) included. `--only faults` or `--only surge` runs one phase;
 * SURGE_BENCH_VISITORS and SURGE_BENCH_SECONDS make a smaller surge (for trying the benchmark out).
 */

const FAULTS_DEADLINE_MS = 20 * 60_000;
const SURGE_DEADLINE_MS = 30 * 60_000;
/** Jobs recorded but not yet final when the visitors are done (an upload refused after its record) are queued by the next sweep. */
const STORED_JOBS_WAIT_MS = 3 * 60_000;

const clusters: ScaleCluster[] = [];
const services: RestartableService[] = [];
const dirs: string[] = [];

async function cleanUp(): Promise<void> {
  for (const cluster of clusters) cluster.killAll();
  await Promise.all(clusters.map((cluster) => cluster.stopAll()));
  await Promise.all(services.map((service) => service.stop().catch(() => {})));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`scale faults bench: ${signal}, cleaning up…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/**
 * The test PostgreSQL runs with `synchronous_commit=off` for speed: a commit is acknowledged before its
 * WAL is written, so an immediate shutdown loses the last moment's acknowledged commits (jobs answered
 * 202 whose record is gone after the restart). A PostgreSQL as deployed keeps the default (on); this
 * database does too, so the crash measures the server and not the test setting.
 */
async function commitDurably(serverUrl: string, databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: serverUrl });
  await db.connect();
  try {
    await db.query(`ALTER DATABASE ${new URL(databaseUrl).pathname.slice(1)} SET synchronous_commit = on`);
  } finally {
    await db.end();
  }
}

interface Phase {
  cluster: ScaleCluster;
  databaseUrl: string;
  storageDir: string;
}

/** A fresh database, queue and storage directory on the shared Redis and PostgreSQL. */
async function phase(redis: RestartableService, postgres: RestartableService, limits: Record<string, string>) {
  const storageDir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-scale-faults-'));
  dirs.push(storageDir);
  const databaseUrl = await createDatabase(postgres.url);
  await commitDurably(postgres.url, databaseUrl);
  const cluster = new ScaleCluster({
    ...limits,
    REDIS_URL: redis.url,
    DATABASE_URL: databaseUrl,
    QUEUE_NAME: `bench-${randomUUID()}`,
    STORAGE_DIR: storageDir,
    DATA_DIR: storageDir,
    WEB_DIST: join(storageDir, 'no-web-build'),
    WORKERS: '1',
  });
  clusters.push(cluster);
  return { cluster, databaseUrl, storageDir };
}

interface Outcome {
  /** Accepted jobs not completed. */
  lost: string[];
  /** Stored jobs (accepted or not) not completed. */
  storedNotCompleted: number;
  completedTwice: string[];
  files: Unowned;
  exitedByThemselves: string[];
}

/** Waits for every stored job to end, stops the processes and counts what was lost, repeated or left. */
async function outcome({ cluster, databaseUrl, storageDir }: Phase, accepted: string[]): Promise<Outcome> {
  await until(
    'every stored job final',
    async () => (await readRecords(databaseUrl)).jobs.every((job) => ['completed', 'failed'].includes(job.status)),
    STORED_JOBS_WAIT_MS,
  ).catch((error: Error) => console.error(`scale faults bench: ${error.message}`));
  const exitedByThemselves = cluster.exitedByThemselves().map((p) => p.name);
  await cluster.stopAll();
  const { jobs } = await readRecords(databaseUrl);
  const status = new Map(jobs.map((job) => [job.id, job.status]));
  return {
    lost: accepted.filter((id) => status.get(id) !== 'completed'),
    storedNotCompleted: jobs.filter((job) => job.status !== 'completed').length,
    completedTwice: cluster.completedTwice(),
    files: filesWithoutRecord(storageDir, jobs),
    exitedByThemselves,
  };
}

const ms = (value: number) => `${Math.round(value)} ms`;
const count = (n: number) => n.toLocaleString('en');
const load = () => (loadavg()[0] as number).toFixed(2);
const files = (f: Unowned) => `${f.photos} / ${f.results} / ${f.partials}`;

/** Evidence for the report: what the processes logged as errors and wrote to stderr. */
function evidence(name: string, cluster: ScaleCluster): void {
  if (cluster.errorCount > 0) {
    console.error(`${name}: ${cluster.errorCount} error lines logged; the first ones:`);
    for (const { process, line } of cluster.errors.slice(0, 10)) console.error(`  ${process}: ${line.slice(0, 600)}`);
  }
  if (cluster.stderr.trim()) console.error(`${name}: stderr:\n${cluster.stderr.slice(-4000)}`);
}

/** What visitors were answered about a job, timed from the start of the fault nearest before each answer. */
function jobTimeline(jobId: string, run: FaultsRun): string {
  const answers = run.answers.filter((a) => a.jobId === jobId);
  return `${jobId}: ${answers
    .map((a) => {
      const fault = run.rows.filter((r) => r.from <= a.sentAt).at(-1);
      const at = fault
        ? `${((a.sentAt - fault.from) / 1000).toFixed(2)} s after "${fault.fault}" began`
        : 'before the faults';
      return `${a.step} ${a.status || 'no answer'} ${at}`;
    })
    .join('; ')}`;
}

function faultsSection(run: FaultsRun, end: Outcome, loads: string[], minutes: number): string {
  const rows = run.rows.map((row) => [
    row.fault,
    row.lasted,
    describeSteps(row.answers),
    seconds(row.readyAfterMs),
    row.othersStayReady
      ? `${row.note}; ${row.notReady.length ? `/readyz not 200 meanwhile on ${row.notReady.join(', ')}` : 'every other process stayed ready'}`
      : row.note,
  ]);
  return [
    '## Scale faults (`npm run bench:scale-faults -w bench`)',
    '',
    `${machine()}; load average ${loads[0]} before the run and ${loads[1]} after it. The built server as 2 \`ROLE=api\``,
    'and 2 `ROLE=worker` processes (WORKERS=1 each; otherwise production defaults: QUEUE_LOCK_TIMEOUT 30 s, SWEEP_INTERVAL',
    '60 s, 3 warm-up renders; rate limits opened, as every visitor comes from one address) on a Redis (append-only file)',
    "and a PostgreSQL of the benchmark's own (its database commits durably, `synchronous_commit=on` as PostgreSQL ships,",
    'where the test service turns it off for speed), all on the one 2-core machine. A visitor arrives every 0.5 s: consent and',
    'upload through a live API (taken in turn for each request), each tried up to 5 times after a refusal (after what',
    'Retry-After says, at most 5 s), then a poll every 2 s, backing off on errors, as the web app falls back to polling.',
    'The faults come one after another, each once the one before is over, 5 s have passed and 3 more artworks are done:',
    'Redis SIGKILLed and restarted 4 s later on its files; PostgreSQL stopped immediately (SIGQUIT: sessions cut,',
    'recovery at the next start) and restarted 4 s later; worker A SIGKILLed while both workers render (6 more visitors',
    'at once every 5 s until they do; worker C started at once); 20 more visitors upload through api A and follow their',
    'jobs on its event streams, then api A is SIGKILLed (api C started at once) and they poll instead; last, a fifth',
    `process, a worker whose every job hangs on its first attempt (TEST_HANG_ATTEMPTS=1, RENDER_TIMEOUT=${HANG_TIMEOUT_S}), runs`,
    'until 3 of its renders are stopped at the deadline (60 s at most; 6 more visitors at once every 5 s meanwhile, so',
    'jobs also wait while the others are busy) and is then stopped with SIGTERM. Answers are those to requests sent from',
    'the fault until every live process was ready again; "no answer" is a connection refused or cut (the killed API).',
    `The run took ${minutes.toFixed(1)} min.`,
    '',
    table(
      [
        'fault',
        'how long it lasted',
        'answers to visitors meanwhile',
        'its end → every live process ready',
        'also seen',
      ],
      rows,
    ),
    '',
    table(
      ['at the end', 'figure', 'target'],
      [
        ['jobs accepted (202)', count(run.accepted.length), ''],
        ['accepted jobs lost (not completed)', end.lost.length, '0'],
        ['jobs stored but not completed (accepted or not)', end.storedNotCompleted, '0'],
        ['jobs completed more than once (`job completed` logged twice)', end.completedTwice.length, '0'],
        ['files without a record: photos / artworks / partial writes', files(end.files), '0 / 0 / 0'],
        [`answers 5xx other than 503 (of ${count(run.answers.length)})`, serverErrors(run.answers), '0'],
        ['processes that exited by themselves', end.exitedByThemselves.join(', ') || 'none', 'none'],
      ],
    ),
  ].join('\n');
}

function latency(answers: Answer[]): string {
  if (answers.length === 0) return 'none';
  const times = answers.map((a) => a.ms);
  return `${ms(percentile(times, 50))} / ${ms(percentile(times, 99))}`;
}

function surgeSection(run: SurgeRun, end: Outcome, loads: string[], minutes: number): string {
  const step = (name: Answer['step']) => run.answers.filter((a) => a.step === name);
  const uploads = step('upload');
  const polls = step('poll').filter((a) => a.status !== 0);
  const { honesty, drain } = run;
  return [
    '## Surge (`npm run bench:scale-faults -w bench`)',
    '',
    `${machine()}; load average ${loads[0]} before the surge and ${loads[1]} after it. 2 \`ROLE=api\` and 2 \`ROLE=worker\``,
    'processes as for the scale faults, on a fresh database, queue and storage directory, with QUEUE_LIMIT at its default',
    `(1,000 waiting jobs, then uploads get 503) and rate limits opened. ${count(SURGE_VISITORS)} visitors arrive evenly within ${SURGE_SECONDS} s (the last started`,
    `${ms(run.lastArrivalLateMs)} after its time), each: consent, one upload of a 1280×1600 JPEG portrait (a shed upload is`,
    'not tried again), then a poll every 2 s, as the web app falls back to polling, until its job is final; the APIs take',
    `turns per request. The load generator keeps at most ${IN_FLIGHT} requests in flight (the longest a request waited for`,
    `its turn: ${ms(run.maxSlotWaitMs)}). Queue positions are judged from the visitors' own polls and each job's recorded`,
    'start (its recorded end less its render time): a waiting job\'s position must never rise, and a job told "position',
    '1" must start before any job a later poll still saw behind another. The drain runs from the last accepted upload to',
    `the last artwork (recorded ends); the workers' rate is ${run.workers} workers rendering back to back at the median render`,
    `time of those jobs. The run took ${minutes.toFixed(1)} min.`,
    '',
    table(
      ['measure', 'figure'],
      [
        ['consent answers', describeAnswers(step('consent'))],
        ['upload answers: accepted (202) / shed', describeAnswers(uploads)],
        [
          '5xx other than 503 / no answer (all requests)',
          `${serverErrors(run.answers)} / ${run.answers.filter((a) => a.status === 0).length}`,
        ],
        ['upload latency p50 / p99, accepted', latency(uploads.filter((a) => a.status === 202))],
        ['upload latency p50 / p99, shed', latency(uploads.filter((a) => a.status === 503))],
        [`poll latency p50 / p99 (${count(polls.length)} polls)`, latency(polls)],
        [
          'queue positions that rose while the job waited',
          `${honesty.rises} in ${count(honesty.waiting)} answers of waiting jobs (${honesty.jobsRising} jobs)`,
        ],
        [
          'jobs told "position 1" that another job overtook',
          `${honesty.overtaken} of ${count(honesty.first)} answers at position 1`,
        ],
        [
          'backlog at the last accepted upload, drained in',
          `${count(drain.jobs)} jobs in ${seconds(drain.seconds * 1000)}: ${drain.jobsPerSecond.toFixed(2)} jobs/s`,
        ],
        [
          "workers' rate at their median render time",
          `${drain.workersPerSecond.toFixed(2)} jobs/s (${ms(drain.renderMs)} a render); the drain ran at ${((100 * drain.jobsPerSecond) / drain.workersPerSecond).toFixed(0)} % of it`,
        ],
        ['accepted jobs lost / completed more than once', `${end.lost.length} / ${end.completedTwice.length}`],
        ['files without a record: photos / artworks / partial writes', files(end.files)],
      ],
    ),
    '',
    table(
      ['process', 'RSS at the start', 'peak RSS (sampled every second)', 'VmHWM (since it started)'],
      run.memory.map((m) => [
        m.process,
        `${m.firstMb.toFixed(0)} MB`,
        `${m.peakMb.toFixed(0)} MB`,
        `${m.hwmMb.toFixed(0)} MB`,
      ]),
    ),
  ].join('\n');
}

async function faultsPhase(redis: RestartableService, postgres: RestartableService, photo: Buffer) {
  console.error('scale faults bench: faults…');
  const loads = [load()];
  const started = performance.now();
  const faults = await phase(redis, postgres, OPEN_LIMITS);
  const deadline = Date.now() + FAULTS_DEADLINE_MS;
  const run = await runFaults(faults.cluster, { redis, postgres, databaseUrl: faults.databaseUrl }, photo, deadline);
  const end = await outcome(faults, run.accepted);
  loads.push(load());
  evidence('faults', faults.cluster);
  for (const jobId of end.lost) {
    console.error(`faults: job lost: ${jobTimeline(jobId, run)}`);
    for (const { process, line } of faults.cluster.warnings.filter((w) => w.line.includes(jobId))) {
      console.error(`  ${process}: ${line.slice(0, 600)}`);
    }
  }
  if (end.completedTwice.length) console.error(`faults: jobs completed twice: ${end.completedTwice.join(', ')}`);
  const body = faultsSection(run, end, loads, (performance.now() - started) / 60_000);
  writeSection('scale-faults', body);
  console.log(body);
}

async function surgePhase(redis: RestartableService, postgres: RestartableService, photo: Buffer) {
  console.error('scale faults bench: surge…');
  const loads = [load()];
  const started = performance.now();
  const { QUEUE_LIMIT: _default, ...opened } = OPEN_LIMITS;
  const surge = await phase(redis, postgres, opened);
  const run = await runSurge(surge.cluster, surge.databaseUrl, photo, Date.now() + SURGE_DEADLINE_MS);
  if (run.unfinished > 0) {
    evidence('surge', surge.cluster);
    throw new Error(`Surge: ${run.unfinished} accepted jobs still not final after ${SURGE_DEADLINE_MS / 60_000} min`);
  }
  const end = await outcome(surge, run.accepted);
  loads.push(load());
  evidence('surge', surge.cluster);
  if (end.lost.length) console.error(`surge: jobs lost: ${end.lost.join(', ')}`);
  if (end.completedTwice.length) console.error(`surge: jobs completed twice: ${end.completedTwice.join(', ')}`);
  const body = surgeSection(run, end, loads, (performance.now() - started) / 60_000);
  writeSection('surge', body);
  console.log(body);
}

async function main() {
  const at = process.argv.indexOf('--only');
  const only = at > 0 ? process.argv[at + 1] : undefined;
  const photo = await uploadPhoto();
  const [redis, postgres] = await Promise.all([startRedis({ appendOnly: true }), startPostgres()]);
  services.push(redis, postgres);
  if (only !== 'surge') await faultsPhase(redis, postgres, photo);
  if (only !== 'faults') await surgePhase(redis, postgres, photo);
}

try {
  await main();
} catch (error) {
  console.error(error);
  for (const cluster of clusters) {
    evidence('failed run', cluster);
    for (const { process, line } of cluster.warnings.slice(-20)) console.error(`  ${process}: ${line.slice(0, 600)}`);
  }
  process.exitCode = 1;
} finally {
  await cleanUp();
}
// Visitors still polling after a failure would keep the process alive.
process.exit();
