import type { FastifyBaseLogger } from 'fastify';
import type { Backend } from './types.js';

const BATCH = 500;

/** Deletes finished jobs and their artworks once their retention has run out. Consents are never swept. */
export async function sweepExpired(backend: Backend, now = Date.now()): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await backend.jobs.expired(now, BATCH);
    if (expired.length === 0) {
      if (removed > 0) await backend.scrub();
      return removed;
    }
    for (const job of expired) {
      if (job.resultToken) await backend.storage.deleteResult(job.resultToken);
      if (job.photoKey) await backend.storage.deletePhoto(job.photoKey);
    }
    await backend.jobs.delete(expired.map((job) => job.id));
    removed += expired.length;
  }
}

export function startSweeper(backend: Backend, intervalMs: number, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpired(backend)
      .then((removed) => {
        if (removed > 0) log.info({ removed }, 'expired jobs swept');
      })
      .catch((err) => log.error({ err }, 'retention sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
