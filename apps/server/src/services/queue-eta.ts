import type { QueueStatusValue } from '@selfie-mosaic/contract';
import type { RecentRender } from './types.js';

/**
 * The queue's time estimate (docs/architecture.md#queue-time-estimate): the seconds until a job's artwork
 * is ready, from the workers' measured throughput. Pure maths; `QueueClock` feeds it the measurements.
 */

/** What the server knows before measuring, and the least it may assume afterwards. */
export interface EtaPrior {
  /**
   * Render workers this process runs itself (0 in an API-only process): at least this many exist, and
   * before any render is measured they are all the estimate knows of (at least one is assumed).
   */
  workers: number;
  renderMs: number;
}

export interface Throughput {
  /** Workers of every process, the most seen rendering at once (at least this process's own). */
  workers: number;
  /** Jobs finished per second across every worker process while there is a queue. */
  jobsPerSecond: number;
  /** A typical job's own render time. */
  renderMs: number;
  /** How many renders the figures rest on (0: the prior alone). */
  measured: number;
}

/**
 * BENCHMARKS.md measures ~150 ms a render on a shared 2-core EPYC; a slower host, a cold worker or a
 * larger artwork takes several times that, and overestimating the very first wait is kinder than
 * underestimating it. Used only until the first render of the last ten minutes is measured.
 */
export const TYPICAL_RENDER_MS = 1000;

export const ETA_WINDOW = {
  /** The latest renders whose overlaps show how many workers there are: a few rounds of every worker. */
  renders: 40,
  /**
   * The latest renders whose median is the render time: robust to a few slow photos, and quick to follow
   * the machine's speed (a burst of uploads or a neighbour's load slows renders, and they speed up after).
   */
  recentRenders: 9,
  /** The latest ends a busy stretch's rate is taken over: a few rounds of every worker. */
  busyEnds: 20,
  /** Ends further apart than this many times the expected interval (R / W) mean the workers sat idle. */
  busyGapRenders: 3,
  /** Older renders say little about the workers running now (a deploy, a scaled-down worker pool). */
  maxAgeMs: 10 * 60_000,
} as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The most renders that were running at one moment: how many workers (of every process) have been seen at work. */
export function mostAtOnce(renders: readonly RecentRender[]): number {
  const edges = renders.flatMap((render) => [
    { at: render.endedAt - render.renderMs, step: 1 },
    { at: render.endedAt, step: -1 },
  ]);
  // An end sorts before a start at the same moment: back-to-back renders of one worker do not overlap.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let running = 0;
  let most = 0;
  for (const edge of edges) {
    running += edge.step;
    most = Math.max(most, running);
  }
  return most;
}

/**
 * Completions per second over the latest busy stretch, or undefined when there has been none lately. A
 * stretch is busy while ends follow each other at most `busyGapRenders` × R / W apart (W workers each
 * finishing one job per R); it needs W + 3 ends to say more than its first round. Unlike the render time
 * it counts what happens between renders too: the queue handing out the next job, the photo's deletion,
 * the records written (in scale mode, round trips to Redis and PostgreSQL as long as a render).
 */
export function busyRate(renders: readonly RecentRender[], workers: number, renderMs: number): number | undefined {
  const gapLimit = (ETA_WINDOW.busyGapRenders * renderMs) / workers;
  let count = 1;
  for (; count < Math.min(renders.length, ETA_WINDOW.busyEnds); count++) {
    const newer = renders[count - 1] as RecentRender;
    if (newer.endedAt - (renders[count] as RecentRender).endedAt > gapLimit) break;
  }
  if (count < workers + 3) return undefined;
  const span = (renders[0] as RecentRender).endedAt - (renders[count - 1] as RecentRender).endedAt;
  return span > 0 ? ((count - 1) * 1000) / span : undefined;
}

/**
 * Throughput while there is a queue. The capacity: W workers each finishing a job per render time, W / R,
 * with R the median of the latest few renders (one slow photo does not move it) and W the most renders
 * seen running at once, never less than the workers this process runs. Where the workers have lately been
 * busy and finished fewer jobs than that, what they really finished (the time between renders counts):
 * completions per second over a whole window would count idle time too, and make the first queue after a
 * quiet spell look several times slower than it is.
 */
export function measureThroughput(renders: readonly RecentRender[], prior: EtaPrior): Throughput {
  const localWorkers = Math.max(1, prior.workers);
  if (renders.length === 0)
    return {
      workers: localWorkers,
      jobsPerSecond: (localWorkers * 1000) / prior.renderMs,
      renderMs: prior.renderMs,
      measured: 0,
    };
  const latest = renders.slice(0, ETA_WINDOW.recentRenders);
  const renderMs = Math.max(1, median(latest.map((render) => render.renderMs)));
  const workers = Math.max(localWorkers, mostAtOnce(renders));
  const capacity = (workers * 1000) / renderMs;
  const jobsPerSecond = Math.min(capacity, busyRate(renders, workers, renderMs) ?? capacity);
  return { workers, jobsPerSecond, renderMs, measured: renders.length };
}

export interface JobProgress {
  status: QueueStatusValue;
  /** 1 + the jobs ahead while waiting, 0 otherwise (the contract's queue_position). */
  position: number;
  /** How long the job has been rendering, when it is. */
  renderingForMs: number;
}

/**
 * Seconds until the artwork is ready. A waiting job starts once `position` jobs finish: the first of the W
 * busy workers frees up after R / (W + 1) on average (their renders are at random stages), each further one
 * 1 / throughput later; then the job takes its own render time. A rendering job needs what is left of a
 * typical render. Null once the job has ended (or for the overload signal). Whole seconds, at least 1.
 */
export function etaSeconds(job: JobProgress, throughput: Throughput): number | null {
  const { workers, jobsPerSecond, renderMs } = throughput;
  let ms: number;
  if (job.status === 'queued' || job.status === 'pending')
    ms = renderMs / (workers + 1) + ((Math.max(1, job.position) - 1) * 1000) / jobsPerSecond + renderMs;
  else if (job.status === 'processing') ms = throughput.renderMs - job.renderingForMs;
  else return null;
  return Math.max(1, Math.round(ms / 1000));
}
