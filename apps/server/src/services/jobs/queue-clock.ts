import type { OperatorQueries } from '../types.js';
import {
  ETA_WINDOW,
  type EtaPrior,
  etaSeconds,
  type JobProgress,
  measureThroughput,
  type Throughput,
} from './queue-eta.js';

/** A busy queue asks for estimates on every move of every stream: one measurement serves them for this long. */
const MEASURE_CACHE_MS = 500;

/**
 * Measures the workers' throughput from the job history (docs/architecture.md#queue-time-estimate). The
 * history is the one record every worker process writes its ends to (SQLite embedded, PostgreSQL in scale
 * mode), so any API process sees all workers' completions without a counter of its own in Redis.
 */
export class QueueClock {
  private cached: { at: number; throughput: Promise<Throughput> } | undefined;

  constructor(
    private readonly operators: Pick<OperatorQueries, 'recentRenders'>,
    private readonly prior: EtaPrior,
    private readonly now: () => number = Date.now,
  ) {}

  throughput(): Promise<Throughput> {
    const now = this.now();
    if (this.cached && now - this.cached.at < MEASURE_CACHE_MS) return this.cached.throughput;
    const throughput = this.operators
      .recentRenders(now - ETA_WINDOW.maxAgeMs, ETA_WINDOW.renders)
      .then((renders) => measureThroughput(renders, this.prior))
      // The estimate is a courtesy: a failed read falls back to the prior instead of failing the status.
      .catch(() => measureThroughput([], this.prior));
    this.cached = { at: now, throughput };
    return throughput;
  }

  /** `startedAt`: when the job started rendering (its record's last update), for a processing job. */
  async eta(job: Omit<JobProgress, 'renderingForMs'>, startedAt?: number): Promise<number | null> {
    if (job.status !== 'queued' && job.status !== 'pending' && job.status !== 'processing') return null;
    const renderingForMs = startedAt === undefined ? 0 : Math.max(0, this.now() - startedAt);
    return etaSeconds({ ...job, renderingForMs }, await this.throughput());
  }
}
