import type { QueueStatusValue } from '@selfie-mosaic/contract';
import type { RecentRender } from '../types.js';

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
   * The latest renders whose median shows how fast the workers have just been going: robust to a few slow
   * photos, and quick to follow the machine's speed.
   */
  recentRenders: 9,
  /**
   * The latest renders whose lower quartile is a render with its cores to itself: a burst of uploads (each
   * checked on the same cores) or a neighbour's moment of load stretches the renders it overlaps, but a
   * burst far above what the workers can render is over long before the queue it builds is.
   */
  speedRenders: 20,
  /** The latest ends a busy stretch's rate is taken over: a few rounds of every worker. */
  busyEnds: 20,
  /** Ends further apart than this many times the expected interval (R / W) mean the workers sat idle. */
  busyGapRenders: 3,
  /** Older renders say little about the workers running now (a deploy, a scaled-down worker pool). */
  maxAgeMs: 10 * 60_000,
} as const;

/** The p-th percentile (0–1) of `values`, interpolated between the two nearest. */
function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const below = sorted[Math.floor(at)] as number;
  const above = sorted[Math.ceil(at)] as number;
  return below + (above - below) * (at - Math.floor(at));
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
 * Throughput while there is a queue: W workers each finishing a job per render, W / R, with W the most
 * renders seen running at once (never less than the workers this process runs) and R the lower quartile of
 * the latest renders (what a render takes when nothing else crowds its cores). Where the workers have lately
 * been busy, the share of their capacity they really turned into finished jobs (the queue's hand-off, the
 * photo's deletion and the records written between renders: in scale mode, round trips as long as a render)
 * scales that down. Completions per second over a whole window would count idle time too, and make the first
 * queue after a quiet spell look several times slower than it is.
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
  const times = (count: number) => renders.slice(0, count).map((render) => render.renderMs);
  const workers = Math.max(localWorkers, mostAtOnce(renders));
  const recentMs = Math.max(1, quantile(times(ETA_WINDOW.recentRenders), 0.5));
  const busy = busyRate(renders, workers, recentMs);
  const realised = busy === undefined ? 1 : Math.min(1, (busy * recentMs) / (workers * 1000));
  const renderMs = Math.max(1, quantile(times(ETA_WINDOW.speedRenders), 0.25));
  return { workers, jobsPerSecond: (realised * workers * 1000) / renderMs, renderMs, measured: renders.length };
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
