import type { FastifyBaseLogger } from 'fastify';
import type { StorageHealth } from '../storage-health.js';
import type { Backend } from '../types.js';
import { ORPHAN_GRACE_MS, reconcileStorage } from './reconcile.js';

const BATCH = 500;

/**
 * Deletes finished jobs and their artworks once their retention has run out, and hand-offs once nobody
 * follows them (a code's token as soon as it ran out). Consents are never swept. Returns how many jobs went.
 */
export async function sweepExpired(backend: Backend, now = Date.now()): Promise<number> {
  const handoffs = await backend.handoffs.sweep(now);
  let removed = 0;
  for (;;) {
    const expired = await backend.jobs.expired(now, BATCH);
    if (expired.length === 0) {
      if (removed + handoffs > 0) await backend.scrub();
      return removed;
    }
    for (const job of expired) {
      if (job.resultToken) await backend.storage.deleteResult(job.resultToken);
      if (job.photoKey) await backend.storage.deletePhoto(job.photoKey);
    }
    // The rows go; the deletion log outlives them: the export proves retention with these times.
    await backend.ledger.expired(expired, Date.now());
    removed += expired.length;
  }
}

/**
 * Retention, then storage against the records (files a crash or a failed write left without a job), then
 * the queue against the records when it lives apart from them (Redis may lose a job the database holds).
 */
async function sweep(backend: Backend, log: FastifyBaseLogger, reconcileQueue: () => Promise<void>): Promise<void> {
  await reconcileQueue();
  const removed = await sweepExpired(backend);
  if (removed > 0) log.info({ removed }, 'expired jobs swept');
  const orphans = await reconcileStorage(backend, Date.now() - ORPHAN_GRACE_MS);
  if (orphans.photos + orphans.results + orphans.partials > 0) log.info(orphans, 'files without a job removed');
}

export function startSweeper(
  backend: Backend,
  intervalMs: number,
  log: FastifyBaseLogger,
  health: StorageHealth,
  reconcileQueue: () => Promise<void> = async () => {},
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep(backend, log, reconcileQueue)
      .catch((err) => {
        health.report(err);
        log.error({ err }, 'retention sweep failed');
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
