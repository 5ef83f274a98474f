import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startServer } from '../../e2e/support/server-process.js';
import { portrait } from '../../packages/mosaic/src/testing/photos.js';
import { OPEN_LIMITS } from './open-limits.js';
import { machine, median, table, writeSection } from './report.js';
import { Visitor } from './visitor.js';

/**
 * Jobs per second of the whole embedded service (HTTP process, render process, SQLite, files) with 1 and
 * 2 render workers: uploads as the web app sends them, accepted as fast as the API takes them, timed from
 * the first upload to the last finished artwork (story version included, as every job makes one). Each
 * server renders a few jobs first (a fresh worker's first renders are 2–3× slower), and the two worker
 * counts alternate over ROUNDS servers so both see the same load on the shared machine.
 *
 * `npm run bench:jobs -w bench` writes its section of BENCHMARKS.md; with `--json` it prints the figures
 * of one round instead (for comparing two builds of the server round by round).
 */

const JOBS = Number(process.env.JOBS_BENCH_JOBS ?? 60);
const ROUNDS = Number(process.env.JOBS_BENCH_ROUNDS ?? 3);
const WARMUP_PER_WORKER = 6;
const POLL_MS = 25;

/** USER_HZ of /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used, all its threads. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The HTTP process's CPU seconds, and its render process's (worker threads and their models). */
function serverCpu(pid: number): { http: number; render: number } {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return { http: cpuSeconds(pid), render: children.reduce((sum, child) => sum + cpuSeconds(child), 0) };
}

async function statusOf(url: string, jobId: string): Promise<string> {
  const body = (await (await fetch(`${url}/api/queue/position/${jobId}`)).json()) as { status: string };
  return body.status;
}

/** When the job ended (ms since `started`) and how. */
async function endOf(url: string, jobId: string, started: number): Promise<{ ms: number; failed: boolean }> {
  for (;;) {
    const status = await statusOf(url, jobId);
    if (status === 'completed' || status === 'failed')
      return { ms: performance.now() - started, failed: status === 'failed' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * When the first and the last of the jobs ended (ms since `started`), and how many failed. Only those two
 * are polled while the jobs run, so the polls cost the server little (the queue finishes jobs in order).
 */
async function ends(url: string, jobIds: Promise<string>[], started: number) {
  const first = await endOf(url, await (jobIds[0] as Promise<string>), started);
  const ids = await Promise.all(jobIds);
  const last = await endOf(url, ids.at(-1) as string, started);
  let failed = 0;
  for (const jobId of ids) if ((await endOf(url, jobId, started)).failed) failed++;
  return { first: first.ms, last: last.ms, failed };
}

async function uploadAll(visitor: Visitor, photo: Buffer, count: number): Promise<Promise<string>[]> {
  const ids: Promise<string>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < count; i++) {
    // One upload after another, as fast as the API answers, while the finished jobs are followed.
    const id = previous.then(async () => {
      const { status, jobId } = await visitor.upload(photo);
      if (status !== 202 || !jobId) throw new Error(`Upload answered ${status}`);
      return jobId;
    });
    ids.push(id);
    previous = id;
  }
  return ids;
}

export interface JobsRound {
  workers: number;
  jobsPerSecond: number;
  /** Completions per second between the first and the last finished job (the pipeline already full). */
  steadyPerSecond: number;
  /** CPU time per job of the HTTP process (uploads, records, files, events), all threads. */
  httpCpuMsPerJob: number;
  /** CPU time per job of the render process (the engine in its worker threads), all threads. */
  renderCpuMsPerJob: number;
  failed: number;
}

/** Another checkout's built server, started as its `npm start` started it (`before-after.ts`). */
export interface ServerBuild {
  checkout: string;
  nodeFlags: string[];
}

export async function jobsRound(photo: Buffer, workers: number, build?: ServerBuild): Promise<JobsRound> {
  const server = await startServer({ ...OPEN_LIMITS, WORKERS: String(workers) }, build);
  try {
    const visitor = new Visitor(server.url);
    await visitor.start();
    await ends(server.url, await uploadAll(visitor, photo, WARMUP_PER_WORKER * workers), performance.now());
    const cpuBefore = serverCpu(server.pid);
    const started = performance.now();
    const { first, last, failed } = await ends(server.url, await uploadAll(visitor, photo, JOBS), started);
    const cpu = serverCpu(server.pid);
    return {
      workers,
      jobsPerSecond: JOBS / (last / 1000),
      steadyPerSecond: (JOBS - 1) / ((last - first) / 1000),
      httpCpuMsPerJob: ((cpu.http - cpuBefore.http) * 1000) / JOBS,
      renderCpuMsPerJob: ((cpu.render - cpuBefore.render) * 1000) / JOBS,
      failed,
    };
  } finally {
    await server.stop();
  }
}

/** A portrait as the web app uploads it: long side 1600 px, JPEG (the engine bench's photo). */
export async function uploadPhoto(): Promise<Buffer> {
  return sharp(await portrait('sample6'))
    .resize(1280, 1600, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function main() {
  const photo = await uploadPhoto();
  if (process.argv.includes('--json')) {
    const at = process.argv.indexOf('--workers');
    const workers = at > 0 ? Number(process.argv[at + 1]) : 2;
    console.log(JSON.stringify(await jobsRound(photo, workers)));
    return;
  }
  const started = performance.now();
  const loadBefore = loadavg()[0] as number;
  const rounds: JobsRound[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const workers of [1, 2]) {
      const result = await jobsRound(photo, workers);
      console.error(JSON.stringify(result));
      rounds.push(result);
    }
  }
  const minutes = (performance.now() - started) / 60_000;
  const of = (workers: number, key: keyof JobsRound) =>
    median(rounds.filter((r) => r.workers === workers).map((r) => r[key]));
  const rate = (workers: number) => of(workers, 'jobsPerSecond');
  const body = [
    '## Jobs per second (`npm run bench:jobs -w bench`)',
    '',
    `${machine()}. ${JOBS} uploads of a 1280×1600 JPEG portrait (as the web app sends them) to the built`,
    `embedded server, one after another as fast as the API accepts them, timed from the first upload to the`,
    `last finished artwork (every job makes the 4:5 and the story version); each server first renders`,
    `${WARMUP_PER_WORKER} jobs per worker. Medians of ${ROUNDS} servers per worker count, 1 and 2 alternating;`,
    `the whole run took ${minutes.toFixed(1)} min. The HTTP process, the render process and the load generator`,
    `share the 2 cores (load average ${loadBefore.toFixed(2)} before the run and ${(loadavg()[0] as number).toFixed(2)} after it:`,
    'above 1 or so, other work had part of the machine and the rates are low).',
    '',
    table(
      [
        'workers',
        'jobs/s (first upload → last artwork)',
        'jobs/s between first and last artwork',
        'CPU per job: HTTP process + render process',
        'failed',
      ],
      [1, 2].map((workers) => [
        workers,
        rate(workers).toFixed(2),
        of(workers, 'steadyPerSecond').toFixed(2),
        `${of(workers, 'httpCpuMsPerJob').toFixed(0)} + ${of(workers, 'renderCpuMsPerJob').toFixed(0)} ms`,
        rounds.filter((r) => r.workers === workers).reduce((sum, r) => sum + r.failed, 0),
      ]),
    ),
    '',
    `Scaling 2 : 1 workers: ${(rate(2) / rate(1)).toFixed(2)}× (target ≥ 10 jobs/s with 2 workers). The rate two`,
    'cores could reach is 2,000 ms ÷ the CPU time per job: with 2 workers that is',
    `${(2000 / (of(2, 'httpCpuMsPerJob') + of(2, 'renderCpuMsPerJob'))).toFixed(1)} jobs/s, before the load generator's share.`,
  ].join('\n');
  writeSection('jobs', body);
  console.log(body);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
