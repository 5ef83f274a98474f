import type { Backend } from '../types.js';

/**
 * How old a photo or artwork without a record must be before it is deleted while other writers may be
 * running: an upload writes its photo moments before its job's record, a render its artwork moments
 * before marking the job completed, possibly in another process (scale mode). Far longer than either.
 */
export const ORPHAN_GRACE_MS = 10 * 60 * 1000;

export interface Reconciled {
  /** Photos of no stored job, or of a job that has ended. */
  photos: number;
  /** Artworks no stored job holds. */
  results: number;
  /** Writes cut short by a crash. */
  partials: number;
}

/**
 * Brings storage in line with the records, so no photo outlives its job whatever happened (a crash between
 * writing a file and its record, a record that could not be written on a full disk, a delete that failed):
 * photos of ended jobs go at once; files without any record go once written before `orphanedBefore`.
 */
export async function reconcileStorage(backend: Backend, orphanedBefore: number): Promise<Reconciled> {
  const { jobs, storage } = backend;
  const removed: Reconciled = { photos: 0, results: 0, partials: await storage.removePartials(orphanedBefore) };

  for await (const page of storage.listPhotos()) {
    const owners = new Map((await jobs.getMany(page.map((entry) => entry.key))).map((job) => [job.id, job]));
    for (const { key, modifiedAt } of page) {
      const job = owners.get(key);
      const ended = job?.status === 'completed' || job?.status === 'failed';
      if (job ? !ended : modifiedAt >= orphanedBefore) continue;
      await storage.deletePhoto(key);
      if (job) await backend.ledger.photoDeleted([job.id], Date.now());
      removed.photos++;
    }
  }

  for await (const listed of storage.listResults()) {
    // A token's post and story files are one artwork: the newer write decides whether it is still young.
    const newest = new Map<string, number>();
    for (const { key, modifiedAt } of listed) newest.set(key, Math.max(modifiedAt, newest.get(key) ?? 0));
    const page = [...newest].map(([key, modifiedAt]) => ({ key, modifiedAt }));
    const held = await jobs.heldResultTokens(page.map((entry) => entry.key));
    for (const { key, modifiedAt } of page) {
      if (held.has(key) || modifiedAt >= orphanedBefore) continue;
      await storage.deleteResult(key);
      removed.results++;
    }
  }
  return removed;
}
