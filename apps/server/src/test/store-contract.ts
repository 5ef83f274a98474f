import { randomUUID } from 'node:crypto';
import { ARTWORK } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsentStore, JobStore } from '../services/types.js';

export interface StoreUnderTest {
  jobs: JobStore;
  consents: ConsentStore;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;

function newJob() {
  const id = randomUUID();
  return { id, sessionId: 'session-1700000000000-abcd1234', blacklabel: false, photoKey: id };
}

/**
 * Behaviour every JobStore/ConsentStore adapter must show. Each adapter's test file calls this with a
 * factory that builds a fresh, empty store (its own temp database or schema).
 */
export function describeStoreContract(name: string, factory: () => Promise<StoreUnderTest>): void {
  describe(`store contract: ${name}`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores a new job as pending with its fields', async () => {
      const job = { ...newJob(), blacklabel: true };
      const created = await store.jobs.create(job);
      expect(created).toMatchObject({ id: job.id, sessionId: job.sessionId, blacklabel: true, status: 'pending' });
      expect(created.attempts).toBe(0);
      expect(await store.jobs.get(job.id)).toEqual(created);
      expect(await store.jobs.get(randomUUID())).toBeUndefined();
    });

    it('moves a job through queued, processing and completed', async () => {
      const { id } = await store.jobs.create(newJob());
      await store.jobs.markQueued(id, 'pending');
      expect((await store.jobs.get(id))?.status).toBe('queued');
      await store.jobs.markProcessing(id, 2);
      expect(await store.jobs.get(id)).toMatchObject({ status: 'processing', attempts: 2 });
      const expiresAt = Date.now() + HOUR;
      await store.jobs.markCompleted(id, {
        token: 'a'.repeat(32),
        width: ARTWORK.width,
        height: ARTWORK.height,
        expiresAt,
      });
      await store.jobs.clearPhoto(id);
      expect(await store.jobs.get(id)).toMatchObject({
        status: 'completed',
        resultToken: 'a'.repeat(32),
        width: ARTWORK.width,
        height: ARTWORK.height,
        expiresAt,
        photoKey: null,
        errorMessage: null,
      });
    });

    it('records a failure with its message and refusal code', async () => {
      const { id } = await store.jobs.create(newJob());
      await store.jobs.markFailed(id, { message: 'No face', code: 'no_face', expiresAt: Date.now() + HOUR });
      expect(await store.jobs.get(id)).toMatchObject({
        status: 'failed',
        errorMessage: 'No face',
        errorCode: 'no_face',
      });
    });

    it('moves a job back to queued only from the status the caller expects', async () => {
      const { id } = await store.jobs.create(newJob());
      await store.jobs.markQueued(id, 'pending');
      await store.jobs.markProcessing(id, 1);
      // A late "queued" from the upload must not undo the worker's "processing".
      await store.jobs.markQueued(id, 'pending');
      expect((await store.jobs.get(id))?.status).toBe('processing');
      await store.jobs.markQueued(id, 'processing');
      expect((await store.jobs.get(id))?.status).toBe('queued');
      const done = await store.jobs.create(newJob());
      await store.jobs.markCompleted(done.id, {
        token: 'b'.repeat(32),
        width: 1,
        height: 1,
        expiresAt: Date.now() + HOUR,
      });
      await store.jobs.markQueued(done.id, 'processing');
      await store.jobs.markQueued(done.id, 'pending');
      expect((await store.jobs.get(done.id))?.status).toBe('completed');
    });

    it('finds an artwork by its token only until it expires', async () => {
      const { id } = await store.jobs.create(newJob());
      const now = Date.now();
      await store.jobs.markCompleted(id, { token: 'c'.repeat(32), width: 1, height: 1, expiresAt: now + HOUR });
      expect((await store.jobs.findByResultToken('c'.repeat(32), now))?.id).toBe(id);
      expect(await store.jobs.findByResultToken('c'.repeat(32), now + 2 * HOUR)).toBeUndefined();
      expect(await store.jobs.findByResultToken('d'.repeat(32), now)).toBeUndefined();
    });

    it('lists expired jobs and deletes them, leaving active ones', async () => {
      const done = await store.jobs.create(newJob());
      const active = await store.jobs.create(newJob());
      const now = Date.now();
      await store.jobs.markFailed(done.id, { message: 'x', code: null, expiresAt: now + HOUR });
      await store.jobs.markQueued(active.id, 'pending');
      expect(await store.jobs.expired(now, 10)).toEqual([]);
      const expired = await store.jobs.expired(now + 2 * HOUR, 10);
      expect(expired.map((job) => job.id)).toEqual([done.id]);
      await store.jobs.delete([done.id]);
      expect(await store.jobs.get(done.id)).toBeUndefined();
      expect(await store.jobs.get(active.id)).toBeDefined();
    });

    it('counts jobs by status and lists ids of a status oldest first', async () => {
      const first = await store.jobs.create(newJob());
      const second = await store.jobs.create(newJob());
      const third = await store.jobs.create(newJob());
      await store.jobs.markQueued(third.id, 'pending');
      expect(await store.jobs.idsWithStatus('pending')).toEqual([first.id, second.id]);
      expect(await store.jobs.countByStatus()).toEqual({
        pending: 2,
        queued: 1,
        processing: 0,
        completed: 0,
        failed: 0,
      });
    });

    it("finds the session's latest affirmative consent, the one its uploads are made under", async () => {
      const yes = 'session-1700000000000-yes00001';
      const declined = 'session-1700000000000-no000001';
      const record = await store.consents.add({
        sessionId: yes,
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'yes',
        consentGiven: true,
      });
      expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(record.createdAt))).toBe(false);
      expect(record).not.toHaveProperty('ipAddress');
      await store.consents.add({
        sessionId: declined,
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'no',
        consentGiven: true,
      });
      expect(await store.consents.coveringConsent(yes)).toEqual(record);
      expect(await store.consents.coveringConsent(declined)).toBeUndefined();
      expect(await store.consents.coveringConsent('session-1700000000000-unknown1')).toBeUndefined();
    });
  });
}
