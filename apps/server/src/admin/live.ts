import { ADMIN_LIVE_WINDOW_MS, type AdminLive, REFUSALS, type RefusalCode } from '@selfie-mosaic/contract';
import type { Backend } from '../services/types.js';

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * The live panel: queue depth and jobs processing from the queue itself (every process in scale mode), the
 * rest from the jobs ended within the window, as the job history recorded them.
 */
export async function liveFigures(backend: Backend, now: number): Promise<AdminLive> {
  const [counts, ended] = await Promise.all([
    backend.queue.counts(),
    backend.operators.endedSince(now - ADMIN_LIVE_WINDOW_MS),
  ]);
  const renderTimes = ended
    .map((job) => job.renderMs)
    .filter((ms): ms is number => ms !== null)
    .sort((a, b) => a - b);
  // Every reason, zero included: the dashboard shows which ones did not happen too.
  const refusals = Object.fromEntries(Object.keys(REFUSALS).map((code) => [code, 0])) as Record<RefusalCode, number>;
  for (const job of ended) if (job.outcome === 'failed' && job.errorCode) refusals[job.errorCode] += 1;
  const windowMinutes = ADMIN_LIVE_WINDOW_MS / 60_000;
  return {
    at: new Date(now).toISOString(),
    queue_depth: counts.waiting,
    processing: counts.active,
    jobs_per_minute: Math.round((ended.length / windowMinutes) * 100) / 100,
    render_ms: renderTimes.length > 0 ? { p50: percentile(renderTimes, 50), p95: percentile(renderTimes, 95) } : null,
    completed: ended.filter((job) => job.outcome === 'completed').length,
    refusals,
    window_minutes: windowMinutes,
  };
}
