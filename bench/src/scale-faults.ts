import { readFileSync } from 'node:fs';
import { isFinalStatus, type QueueStatus } from '@selfie-mosaic/contract';
import { EventSource } from 'eventsource';
import pg from 'pg';
import type { RestartableService } from '../../apps/server/src/test/services.js';
import { childPids } from './process-memory.js';
import {
  allReadyz,
  readyz,
  type ScaleCluster,
  type ServerProcess,
  sleep,
  until,
  watchReadiness,
} from './scale-cluster.js';
import { type Answer, Answers, arrive, Limiter, pollUntilFinal, type VisitOptions, visit } from './scale-visitors.js';
import { Visitor } from './visitor.js';

/**
 * The faults of issue 24 one after another on a running scale-mode cluster (2 API and 2 worker processes)
 * while visitors keep arriving through the live APIs: Redis SIGKILLed and restarted, PostgreSQL stopped
 * immediately and restarted, a worker SIGKILLed mid-job, an API SIGKILLed with event streams open, and a
 * worker whose every first render hangs. A killed process is replaced at once, as an orchestrator would;
 * visitors are sent only to live APIs, as a load balancer would.
 */

/** How long Redis and PostgreSQL stay down. */
const OUTAGE_MS = 4000;
/** One visitor arrives this often: below what the workers render, so the queue stays short between faults. */
const ARRIVAL_MS = 500;
/** Visitors following their jobs on the event streams of the API that is killed. */
const FOLLOWERS = 20;
/** Renders stopped at the deadline before the hanging worker is stopped, or how long it may take to get there. */
const HUNG_RENDERS = 3;
const HANG_WINDOW_MS = 60_000;
/** Render deadline of the hanging worker, in seconds. */
export const HANG_TIMEOUT_S = 3;
/** Visitors arriving at once, and how often, where a fault needs every worker busy. */
const BURST_VISITORS = 6;
const BURST_EVERY_MS = 5000;
/** Between faults: this long, and this many artworks finished, so each fault meets a working cluster. */
const SETTLE_MS = 5000;
const SETTLE_ARTWORKS = 3;

export interface FaultRow {
  fault: string;
  /** Epoch ms of the fault's start, and of every live process being ready again after it. */
  from: number;
  to: number;
  /** How long the fault lasted, in words (an outage's length, or what a kill left to recover). */
  lasted: string;
  /** Answers to requests visitors sent from the fault's start until every live process was ready again. */
  answers: Answer[];
  /** From the fault's end to every live process answering /readyz 200. */
  readyAfterMs: number;
  /** Live processes whose /readyz was not 200 at some moment of that window. */
  notReady: string[];
  /** Whether the other processes should stay ready through it (a lost process, not a lost dependency). */
  othersStayReady: boolean;
  note: string;
}

export interface Services {
  redis: RestartableService;
  postgres: RestartableService;
  databaseUrl: string;
}

export interface FaultsRun {
  rows: FaultRow[];
  answers: Answer[];
  accepted: string[];
}

interface Context {
  cluster: ScaleCluster;
  services: Services;
  answers: Answers;
  options: Omit<VisitOptions, 'api'>;
  api: () => string;
  accepted: Set<string>;
  readiness: ReturnType<typeof watchReadiness>;
}

/** Tenths of a second, or milliseconds below one second. */
export const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Jobs finished so far (each counted once). */
const artworks = (cluster: ScaleCluster) => new Set(cluster.completions.map((c) => c.jobId)).size;

async function settle(cluster: ScaleCluster): Promise<void> {
  const before = artworks(cluster);
  await Promise.all([
    sleep(SETTLE_MS),
    until('artworks after the fault', () => artworks(cluster) >= before + SETTLE_ARTWORKS, 180_000),
  ]);
}

/** Visitors a few at once, on top of the steady ones. */
class Bursts {
  private readonly visits: Promise<unknown>[] = [];
  private last = 0;

  constructor(private readonly ctx: Context) {}

  /** A burst now, unless the last one was less than `ms` ago. */
  every(ms: number): void {
    if (Date.now() - this.last < ms) return;
    this.last = Date.now();
    for (let i = 0; i < BURST_VISITORS; i++) this.visits.push(visit({ ...this.ctx.options, api: this.ctx.api }));
  }

  /** Resolves once every visitor of the bursts has its job final. */
  async done(): Promise<void> {
    await Promise.all(this.visits);
  }
}

/** One fault's row: the answers of its window and the processes that were not ready in it. */
function row(
  ctx: Context,
  from: number,
  to: number,
  fields: Omit<FaultRow, 'answers' | 'notReady' | 'from' | 'to'>,
): FaultRow {
  const notReady = new Set(ctx.readiness.notReady.filter((r) => r.at >= from && r.at <= to).map((r) => r.process));
  return { ...fields, from, to, answers: ctx.answers.between(from, to), notReady: [...notReady] };
}

async function dependencyDown(ctx: Context, fault: string, service: RestartableService): Promise<FaultRow> {
  const from = Date.now();
  await service.crash();
  let restarting = false;
  const noticed = until(
    'every /readyz 503',
    async () => {
      if (restarting) throw new Error('restarted first');
      return (await Promise.all(ctx.cluster.live().map((p) => fetchStatus(`${p.url}/readyz`)))).every((s) => s === 503);
    },
    OUTAGE_MS * 4,
  ).then(
    () => `every process answered /readyz 503 within ${seconds(Date.now() - from)} of the crash`,
    () => 'not every process answered /readyz 503 before the restart',
  );
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - from)));
  restarting = true;
  const note = await noticed;
  await service.restart();
  const end = Date.now();
  const readyAfterMs = await allReadyz(ctx.cluster, 200, `${fault}: every /readyz 200`, 180_000);
  const lasted = `down ${seconds(end - from)}`;
  return row(ctx, from, end + readyAfterMs, { fault, lasted, readyAfterMs, note, othersStayReady: false });
}

const fetchStatus = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.status,
    () => 0,
  );

async function processingJobs(databaseUrl: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<{ id: string }>("SELECT id FROM jobs WHERE status = 'processing'")).rows.map((r) => r.id);
  } finally {
    await db.end();
  }
}

/** The live process of that name. */
function named(cluster: ScaleCluster, name: string): ServerProcess {
  const found = cluster.live().find((p) => p.name === name);
  if (!found) throw new Error(`No live process named ${name}`);
  return found;
}

async function workerKilled(ctx: Context, name: string, replacement: string): Promise<FaultRow> {
  const { cluster } = ctx;
  const worker = named(cluster, name);
  // Mid-job: visitors a few at once until both workers are rendering (one alone keeps up with a steady trickle).
  const burst = new Bursts(ctx);
  await until(
    'both workers rendering',
    async () => {
      burst.every(BURST_EVERY_MS);
      return (await processingJobs(ctx.services.databaseUrl)).length >= 2;
    },
    120_000,
  );
  const held = await processingJobs(ctx.services.databaseUrl);
  const from = Date.now();
  await cluster.kill(worker);
  await cluster.spawn(replacement, 'worker');
  const readyAfterMs = Date.now() - from;
  // The job it held is delivered again once its lock runs out; a job it had just finished needs nothing.
  const again = () => cluster.completions.find((c) => held.includes(c.jobId) && c.attempt >= 2);
  const heldDone = () => held.every((id) => cluster.completions.some((c) => c.jobId === id));
  await until('the killed worker’s job rendered again', () => Boolean(again()) || heldDone(), 180_000);
  await burst.done();
  const redone = again();
  const note = redone
    ? `the job it was rendering completed on ${redone.process} ${seconds(redone.at - from)} after the kill (attempt ${redone.attempt})`
    : 'both jobs in progress at the kill completed without another attempt (the killed one had just finished)';
  return row(ctx, from, from + readyAfterMs, {
    fault: `${worker.name} SIGKILLed mid-job`,
    lasted: `instant; ${replacement} started at once`,
    othersStayReady: true,
    readyAfterMs,
    note,
  });
}

/** A visitor that uploads through `api` and follows its job on that API's event stream, polling once it breaks. */
function follower(ctx: Context, api: ServerProcess) {
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const outcome = (async () => {
    const jobId = await arrive(new Visitor(api.url), { ...ctx.options, api: () => api.url });
    if (!jobId) {
      opened();
      return { status: undefined, brokenAt: 0, resumedAt: undefined };
    }
    ctx.accepted.add(jobId);
    let brokenAt = 0;
    const streamed = await new Promise<QueueStatus['status'] | 'broken'>((resolve) => {
      const source = new EventSource(`${api.url}/api/queue/stream/${jobId}`);
      source.onmessage = (event) => {
        opened();
        const { status } = JSON.parse(event.data) as QueueStatus;
        if (isFinalStatus(status)) {
          source.close();
          resolve(status);
        }
      };
      source.onerror = () => {
        brokenAt = Date.now();
        source.close();
        resolve('broken');
      };
    });
    opened();
    if (streamed !== 'broken') return { status: streamed, brokenAt, resumedAt: undefined };
    // The web app's fallback: poll, through whichever API is live.
    let resumedAt: number | undefined;
    const polled = await pollUntilFinal(
      {
        ...ctx.options,
        api: ctx.api,
        onPoll: (sample) => {
          resumedAt ??= sample.receivedAt;
        },
      },
      jobId,
    );
    return { status: polled.status, brokenAt, resumedAt };
  })();
  return { open, outcome };
}

async function apiKilled(ctx: Context, name: string, replacement: string): Promise<FaultRow> {
  const api = named(ctx.cluster, name);
  const followers = Array.from({ length: FOLLOWERS }, () => follower(ctx, api));
  await Promise.all(followers.map((f) => f.open));
  const from = Date.now();
  await ctx.cluster.kill(api);
  await ctx.cluster.spawn(replacement, 'api');
  const readyAfterMs = Date.now() - from;
  const outcomes = await Promise.all(followers.map((f) => f.outcome));
  // Streams that broke with the kill (one that failed before it would have fallen back on its own).
  const broken = outcomes.filter((o) => o.brokenAt >= from);
  const resumed = broken.filter((o) => o.resumedAt !== undefined).map((o) => (o.resumedAt as number) - from);
  const completed = broken.filter((o) => o.status === 'completed').length;
  const note =
    `${broken.length} of ${FOLLOWERS} followers' streams were open at the kill; ${resumed.length} resumed by polling ` +
    `another API, the last ${seconds(Math.max(0, ...resumed))} after the kill; ${completed} of them got their artwork`;
  return row(ctx, from, from + readyAfterMs, {
    fault: `${api.name} SIGKILLed with streams open`,
    lasted: `instant; ${replacement} started at once`,
    othersStayReady: true,
    readyAfterMs,
    note,
  });
}

/** Evidence when the hanging worker does not behave: its readiness, render process CPU, metrics and the unfinished jobs. */
async function hungState(ctx: Context, hung: ServerProcess): Promise<string> {
  const metrics = await fetch(`${hung.url}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  const lines = metrics
    .split('\n')
    .filter((l) => /^selfie_mosaic_(queue_depth|render_seconds_count|storage_writable)/.test(l));
  const cpu = childPids(hung.pid).map((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${(Number(fields[11]) + Number(fields[12])) / 100} s`;
  });
  const db = new pg.Client({ connectionString: ctx.services.databaseUrl });
  await db.connect();
  const unfinished = await db
    .query("SELECT id, status, attempts, updated_at FROM jobs WHERE status NOT IN ('completed', 'failed')")
    .finally(() => db.end());
  return `readyz ${await readyz(hung)}; render process CPU ${cpu.join(', ')}; ${lines.join(', ')}; unfinished jobs ${JSON.stringify(unfinished.rows)}`;
}

async function rendersHang(ctx: Context): Promise<FaultRow> {
  const { cluster } = ctx;
  const hung = await cluster.spawn('worker E (renders hang)', 'worker', {
    TEST_HANG_ATTEMPTS: '1',
    RENDER_TIMEOUT: String(HANG_TIMEOUT_S),
  });
  const from = Date.now();
  const stopped = () => cluster.deadlines.filter((d) => d.process === hung.name);
  const took = () => stopped().length + cluster.completions.filter((c) => c.process === hung.name).length;
  // Bursts of visitors, so that jobs also wait while the other workers are busy and this one is offered some.
  const burst = new Bursts(ctx);
  const enough = await until(
    'hung renders stopped',
    () => {
      burst.every(BURST_EVERY_MS);
      return stopped().length >= HUNG_RENDERS;
    },
    HANG_WINDOW_MS,
  ).then(
    () => true,
    () => false,
  );
  // A worker that took no job at all is a finding of its own: what it was doing goes to the console.
  if (took() === 0) console.error(`${hung.name} took no job: ${await hungState(ctx, hung)}`);
  await cluster.stop(hung);
  const end = Date.now();
  const readyAfterMs = await allReadyz(cluster, 200, 'after the hanging worker', 60_000);
  const hungJobs = new Set(stopped().map((d) => d.jobId));
  const completed = () => [...hungJobs].filter((id) => cluster.completions.some((c) => c.jobId === id)).length;
  await until('the hung jobs completed', () => completed() === hungJobs.size, 180_000).catch(() => {});
  await burst.done();
  // How the jobs of its time were shared: a worker that takes few jobs shows beside the others.
  const others = new Map<string, number>();
  for (const c of cluster.completions.filter((c) => c.at >= from && c.at <= end && c.process !== hung.name)) {
    others.set(c.process, (others.get(c.process) ?? 0) + 1);
  }
  const meanwhile = [...others].map(([name, n]) => `${name} ${n}`).join(', ');
  const note = enough
    ? `${plural(stopped().length, 'render')} stopped at the ${HANG_TIMEOUT_S} s deadline (${plural(hungJobs.size, 'job')}); ` +
      `${completed()} of those jobs completed on a later attempt; meanwhile jobs completed by ${meanwhile}`
    : `it took ${plural(took(), 'job')} in ${seconds(HANG_WINDOW_MS)} (${plural(stopped().length, 'render')} stopped at the ` +
      `deadline), though its /readyz said 200, while ${meanwhile} completed theirs; ${completed()} of ${hungJobs.size} hung ` +
      'jobs completed on a later attempt';
  return row(ctx, from, end + readyAfterMs, {
    fault: `${hung.name}: every first render hangs`,
    lasted: `${seconds(end - from)} (from ready to its graceful stop)`,
    othersStayReady: true,
    readyAfterMs,
    note,
  });
}

/** The faults in the order they are made, one row each. */
const FAULTS: ((ctx: Context) => Promise<FaultRow>)[] = [
  (ctx) => dependencyDown(ctx, 'Redis SIGKILLed, restarted', ctx.services.redis),
  (ctx) => dependencyDown(ctx, 'PostgreSQL stopped immediately, restarted', ctx.services.postgres),
  (ctx) => workerKilled(ctx, 'worker A', 'worker C'),
  (ctx) => apiKilled(ctx, 'api A', 'api C'),
  rendersHang,
];

export async function runFaults(
  cluster: ScaleCluster,
  services: Services,
  photo: Buffer,
  deadline: number,
): Promise<FaultsRun> {
  await Promise.all([
    cluster.spawn('api A', 'api'),
    cluster.spawn('api B', 'api'),
    cluster.spawn('worker A', 'worker'),
    cluster.spawn('worker B', 'worker'),
  ]);
  let turn = 0;
  const api = () => {
    const live = cluster.live('api');
    return (live[turn++ % live.length] as ServerProcess).url;
  };
  const answers = new Answers();
  const accepted = new Set<string>();
  let running = true;
  const options = {
    photo,
    answers,
    limiter: new Limiter(64),
    tries: 5,
    active: () => running && Date.now() < deadline,
    onAccepted: (jobId: string) => accepted.add(jobId),
  };
  const readiness = watchReadiness(cluster, 250);
  const ctx: Context = { cluster, services, answers, options, api, accepted, readiness };

  let arriving = true;
  const visits: Promise<unknown>[] = [];
  const arrivals = (async () => {
    while (arriving) {
      visits.push(visit({ ...options, api }));
      await sleep(ARRIVAL_MS);
    }
  })();
  try {
    await until('first artworks', () => artworks(cluster) >= 5, 180_000);
    const rows: FaultRow[] = [];
    for (const fault of FAULTS) {
      if (rows.length > 0) await settle(cluster);
      rows.push(await fault(ctx));
    }
    arriving = false;
    await arrivals;
    // Every visitor polls until its job is final, or until the deadline.
    await Promise.all(visits);
    return { rows, answers: answers.list, accepted: [...accepted] };
  } finally {
    arriving = false;
    running = false;
    await readiness.stop();
  }
}
