import type { QueueStatusValue } from '@selfie-mosaic/contract';
import type { RecentRender } from './types.js';

/**
 * The queue's time estimate (docs/architecture.md#queue-time-estimate): the seconds until a job's artwork
 * is ready, from the workers' measured throughput. Pure maths; `QueueClock` feeds it the measurements.
 */

/** What the server assumes before any render has been measured. */
export interface EtaPrior {
  /** Render workers of this process's configuration (in scale mode the measurement soon takes over). */
  workers: number;
  renderMs: number;
}

export interface Throughput {
  /** Jobs finished per second across every worker process. */
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
  /** The latest renders the measure rests on: enough to smooth one slow photo, few enough to follow a change. */
  renders: 40,
  /** Older renders say little about the workers running now (a deploy, a scaled-down worker pool). */
  maxAgeMs: 10 * 60_000,
  /** The prior counts as this many renders: it steadies the first few measurements, then fades. */
  priorWeight: 3,
  /** A gap between two ends longer than this many render times means the workers sat idle in between. */
  idleGapRenders: 2,
} as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Throughput from the latest renders (newest first). Only the latest busy run counts: the ends since the
 * workers last sat idle, where completions per second is what the workers can do, whatever their number
 * or processes. The run began one render before its first end, so n ends over (span + one render) is exact
 * for W workers starting together: kW ends in kR. The prior (W / typical render) is blended in by weight.
 */
export function measureThroughput(renders: readonly RecentRender[], prior: EtaPrior): Throughput {
  if (renders.length === 0)
    return { jobsPerSecond: (prior.workers * 1000) / prior.renderMs, renderMs: prior.renderMs, measured: 0 };
  const renderMs = Math.max(1, median(renders.map((render) => render.renderMs)));
  let oldest = renders[0] as RecentRender;
  let count = 1;
  for (const render of renders.slice(1)) {
    if (oldest.endedAt - render.endedAt > ETA_WINDOW.idleGapRenders * renderMs) break;
    oldest = render;
    count++;
  }
  const newest = renders[0] as RecentRender;
  const measuredRate = (count * 1000) / (newest.endedAt - oldest.endedAt + renderMs);
  const priorRate = (prior.workers * 1000) / renderMs;
  const jobsPerSecond = (count * measuredRate + ETA_WINDOW.priorWeight * priorRate) / (count + ETA_WINDOW.priorWeight);
  return { jobsPerSecond, renderMs, measured: renders.length };
}

export interface JobProgress {
  status: QueueStatusValue;
  /** 1 + the jobs ahead while waiting, 0 otherwise (the contract's queue_position). */
  position: number;
  /** How long the job has been rendering, when it is. */
  renderingForMs: number;
}

/**
 * Seconds until the artwork is ready: a waiting job starts after `position` jobs finish (the ones ahead and
 * the one whose worker it takes), at the measured rate, then takes its own render time; a rendering job
 * needs what is left of a typical render. Null once the job has ended (or for the overload signal).
 * Whole seconds, at least 1 while the artwork is not ready.
 */
export function etaSeconds(job: JobProgress, throughput: Throughput): number | null {
  let ms: number;
  if (job.status === 'queued' || job.status === 'pending')
    ms = (Math.max(1, job.position) * 1000) / throughput.jobsPerSecond + throughput.renderMs;
  else if (job.status === 'processing') ms = throughput.renderMs - job.renderingForMs;
  else return null;
  return Math.max(1, Math.round(ms / 1000));
}
