import { createJobId } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { StorageHealth } from '../storage-health.js';
import type { Backend, ConsentRecord } from '../types.js';
import { enqueueJob } from './job-runner.js';

export interface Intake {
  backend: Backend;
  health: StorageHealth;
  log: FastifyBaseLogger;
}

/**
 * Stores an accepted upload as a queued job and returns its id. All or nothing: the photo is written
 * whole (or not at all) before its record, and when a later step fails (a full disk, a locked database)
 * the steps already done are undone, so a refused upload leaves no photo behind. Whatever a crash leaves
 * between two steps, start-up and the sweep remove (`reconcileStorage`). While writes fail, uploads are
 * refused at once with the catalogue's storage error (507 or 503).
 */
export async function acceptJob(
  { backend, health, log }: Intake,
  upload: { sessionId: string; consent: ConsentRecord; blacklabel: boolean; photo: Buffer },
): Promise<string> {
  health.assertWritable();
  const jobId = createJobId();
  const undo: (() => Promise<void>)[] = [];
  try {
    const photoKey = await backend.storage.savePhoto(jobId, upload.photo);
    undo.push(() => backend.storage.deletePhoto(photoKey));
    // The job, its lasting record under the consent (docs/architecture.md#operators) and its count: one step.
    const job = { id: jobId, sessionId: upload.sessionId, blacklabel: upload.blacklabel, photoKey };
    await backend.ledger.accepted(job, upload.consent);
    undo.push(() => backend.ledger.withdrawn(jobId));
    await enqueueJob(backend, jobId);
    return jobId;
  } catch (error) {
    health.report(error);
    for (const step of undo.reverse()) {
      // If an undo fails too, the reconciliation finds the photo (without a record) or the job (stranded).
      await step().catch((err) => log.warn({ err, jobId }, 'refused upload not fully undone'));
    }
    throw error;
  }
}
