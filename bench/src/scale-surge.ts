import { type MemoryPeak, MemorySampler, ownChild, type Target } from './process-memory.js';
import { type Honesty, queueHonesty } from './queue-honesty.js';
import { median } from './report.js';
import type { ScaleCluster, ServerProcess } from './scale-cluster.js';
import { readRecords } from './scale-records.js';
import { type Answer, Answers, Limiter, type PollSample, type Visit, visit } from './scale-visitors.js';

/**
 * A launch-day surge on a scale-mode cluster (2 API and 2 worker processes): SURGE_VISITORS visitors
 * arriving evenly within SURGE_SECONDS, each consenting, uploading once (a shed upload is not tried again)
 * and polling until its job is final. What they were answered, how honest the queue positions were, how
 * fast the backlog drained, and how much memory each process took.
 */

export const SURGE_VISITORS = Number(process.env.SURGE_BENCH_VISITORS ?? 2000);
export const SURGE_SECONDS = Number(process.env.SURGE_BENCH_SECONDS ?? 60);
/** Requests the load generator keeps in flight at most: far above what the APIs answer at once. */
export const IN_FLIGHT = 256;

export interface SurgeRun {
  answers: Answer[];
  accepted: string[];
  /** Accepted jobs not final when the deadline came. */
  unfinished: number;
  /** How late the last arrival started against its schedule, ms. */
  lastArrivalLateMs: number;
  /** The longest a request waited for a slot of the load generator. */
  maxSlotWaitMs: number;
  honesty: Honesty;
  drain: Drain;
  memory: MemoryPeak[];
  workers: number;
}

export interface Drain {
  /** Jobs that ended after the last accepted upload. */
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  /** The median render time of those jobs, ms. */
  renderMs: number;
  /** What the workers render back to back at that render time. */
  workersPerSecond: number;
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

export async function runSurge(
  cluster: ScaleCluster,
  databaseUrl: string,
  photo: Buffer,
  deadline: number,
): Promise<SurgeRun> {
  await Promise.all([
    cluster.spawn('api A', 'api'),
    cluster.spawn('api B', 'api'),
    cluster.spawn('worker A', 'worker'),
    cluster.spawn('worker B', 'worker'),
  ]);
  const redis = ownChild('redis-server');
  const targets = (): Target[] => [
    ...cluster.live().map((p) => ({ name: p.name, pid: p.pid })),
    ...(redis ? [{ name: 'Redis', pid: redis, children: false }] : []),
    { name: 'load generator (this benchmark)', pid: process.pid, children: false },
  ];
  const memory = new MemorySampler(targets);
  memory.start(1000);

  let turn = 0;
  const api = () => {
    const live = cluster.live('api');
    return (live[turn++ % live.length] as ServerProcess).url;
  };
  const answers = new Answers();
  const limiter = new Limiter(IN_FLIGHT);
  const samples: PollSample[] = [];
  let running = true;
  const options = {
    api,
    photo,
    answers,
    limiter,
    tries: 1,
    active: () => running && Date.now() < deadline,
    onPoll: (sample: PollSample) => samples.push(sample),
  };
  try {
    const started = Date.now();
    const spacing = (SURGE_SECONDS * 1000) / SURGE_VISITORS;
    const visits: Promise<Visit>[] = [];
    for (let i = 0; i < SURGE_VISITORS; i++) {
      await sleepUntil(started + i * spacing);
      visits.push(visit(options));
    }
    const lastArrivalLateMs = Date.now() - (started + (SURGE_VISITORS - 1) * spacing);
    const outcomes = await Promise.all(visits);
    const accepted = outcomes.filter((v) => v.jobId).map((v) => v.jobId as string);
    const unfinished = outcomes.filter((v) => v.jobId && v.status !== 'completed' && v.status !== 'failed').length;
    const peaks = memory.stop();

    const { history } = await readRecords(databaseUrl);
    const starts = new Map(
      history
        .filter((h) => h.endedAt !== null && h.renderMs !== null)
        .map((h) => [h.jobId, (h.endedAt as number) - (h.renderMs as number)]),
    );
    const lastAccepted = Math.max(
      ...answers.list.filter((a) => a.step === 'upload' && a.status === 202).map((a) => a.sentAt + a.ms),
    );
    const workers = cluster.live('worker').length;
    return {
      answers: answers.list,
      accepted,
      unfinished,
      lastArrivalLateMs,
      maxSlotWaitMs: limiter.maxWaitMs,
      honesty: queueHonesty(samples, starts),
      drain: drainAfter(history, lastAccepted, workers),
      memory: peaks,
      workers,
    };
  } finally {
    running = false;
    memory.stop();
  }
}

function drainAfter(history: Awaited<ReturnType<typeof readRecords>>['history'], from: number, workers: number) {
  const ended = history.filter((h) => h.endedAt !== null && h.endedAt > from);
  const last = Math.max(...ended.map((h) => h.endedAt as number));
  const seconds = (last - from) / 1000;
  const renderMs = median(ended.filter((h) => h.renderMs !== null).map((h) => h.renderMs as number));
  return {
    jobs: ended.length,
    seconds,
    jobsPerSecond: ended.length / seconds,
    renderMs,
    workersPerSecond: (workers * 1000) / renderMs,
  };
}
