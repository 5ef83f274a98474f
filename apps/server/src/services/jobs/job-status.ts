import { isActiveStatus, type QueueStatus } from '@selfie-mosaic/contract';
import type { Backend, JobRecord } from '../types.js';
import type { QueueClock } from './queue-clock.js';

/** What a client sees of a job; the shape of both the poll body and each stream message. */
export async function jobStatus(backend: Backend, clock: QueueClock, job: JobRecord): Promise<QueueStatus> {
  const waiting = job.status === 'queued' || job.status === 'pending';
  // The throughput is read alongside the position (the estimate below then finds it cached): one round
  // trip's latency, not two, in the hot poll path; an ended job has no estimate and needs neither.
  const measuring = isActiveStatus(job.status) ? clock.throughput() : undefined;
  // A job between leaving the queue and being marked processing still reads as next in line.
  const position = waiting ? Math.max(1, await backend.queue.position(job.id)) : 0;
  await measuring;
  return {
    status: job.status,
    queue_position: position,
    error_message: job.errorMessage,
    error_code: job.errorCode,
    // A processing job's record was last written when it started rendering.
    eta_seconds: await clock.eta({ status: job.status, position }, job.updatedAt),
  };
}
