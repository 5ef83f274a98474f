import { randomUUID } from 'node:crypto';
import { ARTWORK, MESSAGES } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsentStore, JobLedger, JobStore, OperatorQueries } from '../services/types.js';

export interface LedgerUnderTest {
  ledger: JobLedger;
  jobs: JobStore;
  consents: ConsentStore;
  operators: OperatorQueries;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;
const TODAY = new Date().toISOString().slice(0, 10);

function newJob() {
  const id = randomUUID();
  return { id, sessionId: 'session-1700000000000-abcd1234', blacklabel: false, photoKey: id };
}

const artwork = () => ({
  token: randomUUID().replaceAll('-', ''),
  width: ARTWORK.width,
  height: ARTWORK.height,
  expiresAt: Date.now() + HOUR,
  renderMs: 140,
});
/** Deliveries of one job by the queue: attempt numbers, and the random ids the runner gives each. */
const first = { attempt: 1, id: 'delivery-1' };
const second = { attempt: 2, id: 'delivery-2' };
// A queue that lost its last writes in a crash can number a delivery as one it made before.
const renumbered = { attempt: 2, id: 'delivery-3' };

const refusal = { message: MESSAGES.noFace, code: 'no_face', expiresAt: Date.now() + HOUR, renderMs: 90 } as const;

/**
 * The job's one ledger, for every database: each transition moves the job row, its history and the
 * dashboard's funnel counters together, or none of them; a transition that does not apply to the job as
 * it stands (a late or repeated delivery) changes nothing and says so.
 */
export function describeLedgerContract(name: string, factory: () => Promise<LedgerUnderTest>): void {
  describe(`job ledger contract: ${name}`, () => {
    let stores: LedgerUnderTest;
    beforeEach(async () => {
      stores = await factory();
    });
    afterEach(async () => {
      await stores.close();
    });

    const consent = () =>
      stores.consents.add({
        sessionId: 'session-1700000000000-abcd1234',
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'yes',
        consentGiven: true,
      });
    const funnel = async (step: string) =>
      (await stores.operators.funnelCounts(TODAY, TODAY))
        .filter((count) => count.step === step)
        .reduce((sum, count) => sum + count.n, 0);
    const history = async (jobId: string, consentId: string) =>
      (await stores.operators.jobsOfConsents([consentId])).find((record) => record.jobId === jobId);
    const accept = async () => {
      const covering = await consent();
      const job = await stores.ledger.accepted(newJob(), covering);
      return { job, covering };
    };

    it('records an accepted upload as pending, under its consent, counted once; withdrawn takes it all back', async () => {
      const { job, covering } = await accept();
      expect(job).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await stores.jobs.get(job.id)).toEqual(job);
      expect(await history(job.id, covering.id)).toMatchObject({ consentId: covering.id, endedAt: null });
      expect(await funnel('uploads')).toBe(1);

      await stores.ledger.withdrawn(job.id);
      expect(await stores.jobs.get(job.id)).toBeUndefined();
      expect(await history(job.id, covering.id)).toBeUndefined();
      expect(await funnel('uploads')).toBe(0);
    });

    it('is all or nothing: an upload that cannot be recorded whole leaves no row, no history and no count', async () => {
      const { job, covering } = await accept();
      // The same id again: the row's insert fails, so nothing of the second upload remains.
      await expect(stores.ledger.accepted({ ...newJob(), id: job.id }, covering)).rejects.toThrow();
      expect(await funnel('uploads')).toBe(1);
      expect((await stores.operators.jobsOfConsents([covering.id])).length).toBe(1);
    });

    it('takes a job through queued, processing and completed, its end recorded and counted with it', async () => {
      const { job, covering } = await accept();
      expect(await stores.ledger.queued(job.id)).toEqual({
        jobId: job.id,
        status: 'queued',
        errorMessage: null,
        errorCode: null,
      });
      expect(await stores.ledger.queued(job.id)).toBeUndefined();
      expect((await stores.ledger.started(job.id, first))?.status).toBe('processing');
      // A late "queued" from the upload does not undo the worker's "processing".
      expect(await stores.ledger.queued(job.id)).toBeUndefined();
      expect(await stores.jobs.get(job.id)).toMatchObject({ status: 'processing', attempts: 1 });

      const result = artwork();
      expect((await stores.ledger.completed(job.id, first.id, result))?.status).toBe('completed');
      expect(await stores.jobs.get(job.id)).toMatchObject({
        status: 'completed',
        resultToken: result.token,
        width: ARTWORK.width,
        height: ARTWORK.height,
        expiresAt: result.expiresAt,
        errorMessage: null,
      });
      expect(await history(job.id, covering.id)).toMatchObject({ outcome: 'completed', renderMs: 140 });
      expect(await funnel('artworks')).toBe(1);
    });

    it('lets only the delivery holding a job complete it: a new delivery takes it over, the one before is told no', async () => {
      const { job } = await accept();
      await stores.ledger.queued(job.id);
      await stores.ledger.started(job.id, first);
      // The queue gave the first worker up for dead and delivered the job again, then again under a number
      // it had used before (its last writes lost in a crash): each new delivery takes the job over.
      expect((await stores.ledger.started(job.id, second))?.status).toBe('processing');
      expect((await stores.ledger.started(job.id, renumbered))?.status).toBe('processing');

      for (const earlier of [first, second]) {
        const late = artwork();
        expect(await stores.ledger.completed(job.id, earlier.id, late)).toBeUndefined();
        expect(await stores.ledger.failed(job.id, refusal, earlier.id)).toBeUndefined();
        expect(await stores.ledger.requeued(job.id, earlier.id)).toBeUndefined();
        expect(await stores.jobs.heldResultTokens([late.token])).toEqual(new Set());
      }
      expect(await stores.jobs.get(job.id)).toMatchObject({ status: 'processing', resultToken: null, attempts: 2 });

      const owned = artwork();
      expect((await stores.ledger.completed(job.id, renumbered.id, owned))?.status).toBe('completed');
      // Ended: nothing moves it again, and its end was counted once.
      expect(await stores.ledger.completed(job.id, renumbered.id, artwork())).toBeUndefined();
      expect(await stores.ledger.started(job.id, { attempt: 4, id: 'delivery-4' })).toBeUndefined();
      expect(await stores.ledger.queued(job.id)).toBeUndefined();
      expect(await stores.ledger.requeued(job.id)).toBeUndefined();
      expect(await stores.ledger.failed(job.id, refusal)).toBeUndefined();
      expect((await stores.jobs.get(job.id))?.resultToken).toBe(owned.token);
      expect(await funnel('artworks')).toBe(1);
    });

    it('puts a job whose attempt failed back in the queue, only from the delivery that holds it', async () => {
      const { job } = await accept();
      await stores.ledger.queued(job.id);
      await stores.ledger.started(job.id, first);
      expect(await stores.ledger.requeued(job.id, second.id)).toBeUndefined();
      expect((await stores.ledger.requeued(job.id, first.id))?.status).toBe('queued');
      expect((await stores.ledger.started(job.id, second))?.status).toBe('processing');
      // A worker found dead: whoever held it, the job waits again.
      expect((await stores.ledger.requeued(job.id))?.status).toBe('queued');
    });

    it('fails a job with its message, its end recorded, not counted as an artwork', async () => {
      const { job, covering } = await accept();
      await stores.ledger.queued(job.id);
      await stores.ledger.started(job.id, first);
      expect(await stores.ledger.failed(job.id, refusal, second.id)).toBeUndefined();
      expect(await stores.ledger.failed(job.id, refusal, first.id)).toEqual({
        jobId: job.id,
        status: 'failed',
        errorMessage: MESSAGES.noFace,
        errorCode: 'no_face',
      });
      expect(await stores.jobs.get(job.id)).toMatchObject({
        status: 'failed',
        errorMessage: MESSAGES.noFace,
        errorCode: 'no_face',
      });
      expect(await history(job.id, covering.id)).toMatchObject({
        outcome: 'failed',
        errorCode: 'no_face',
        renderMs: 90,
      });
      expect(await funnel('artworks')).toBe(0);
      // Out of attempts before any started it: failed from the queue.
      const waiting = await accept();
      await stores.ledger.queued(waiting.job.id);
      expect((await stores.ledger.failed(waiting.job.id, { ...refusal, renderMs: null }))?.status).toBe('failed');
    });

    it('records when the photo went, once, and deletes expired jobs keeping their deletion times', async () => {
      const { job, covering } = await accept();
      const active = await accept();
      await stores.ledger.queued(job.id);
      await stores.ledger.started(job.id, first);
      await stores.ledger.completed(job.id, first.id, artwork());
      await stores.ledger.photoDeleted([job.id], 1000);
      await stores.ledger.photoDeleted([job.id], 2000);
      expect((await stores.jobs.get(job.id))?.photoKey).toBeNull();
      expect((await history(job.id, covering.id))?.photoDeletedAt).toBe(1000);

      const expiring = await stores.jobs.get(job.id);
      await stores.ledger.expired(expiring ? [expiring] : [], 3000);
      expect(await stores.jobs.get(job.id)).toBeUndefined();
      expect(await history(job.id, covering.id)).toMatchObject({ photoDeletedAt: 1000, artworkDeletedAt: 3000 });
      // Only the jobs given go.
      expect(await stores.jobs.get(active.job.id)).toEqual(active.job);
    });
  });
}
