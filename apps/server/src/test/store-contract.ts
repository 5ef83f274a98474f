import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsentStore, JobLedger, JobRecord, JobStore, NewJob } from '../services/types.js';

export interface StoreUnderTest {
  jobs: JobStore;
  consents: ConsentStore;
  /** The only writer of jobs: the state each read is tested against is set up through it. */
  ledger: JobLedger;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;
const SESSION = 'session-1700000000000-abcd1234';

function newJob(): NewJob {
  const id = randomUUID();
  return { id, sessionId: SESSION, blacklabel: false, photoKey: id };
}

/**
 * Behaviour every JobStore/ConsentStore adapter must show. Each adapter's test file calls this with a
 * factory that builds a fresh, empty store (its own temp database or schema). How jobs change is the
 * ledger's contract (ledger-contract.ts); this one holds what the reads promise.
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

    const accept = async (job: NewJob = newJob()): Promise<JobRecord> => {
      const consent = await store.consents.add({
        sessionId: job.sessionId,
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'yes',
        consentGiven: true,
      });
      return store.ledger.accepted(job, consent);
    };
    /** An accepted job rendered by its first delivery into an artwork kept until `expiresAt`. */
    const complete = async (token: string, expiresAt: number): Promise<JobRecord> => {
      const job = await accept();
      await store.ledger.queued(job.id);
      await store.ledger.started(job.id, { attempt: 1, id: 'delivery-1' });
      await store.ledger.completed(job.id, 'delivery-1', { token, width: 1, height: 1, expiresAt, renderMs: null });
      return job;
    };

    it('stores a new job as pending with its fields', async () => {
      const job = { ...newJob(), blacklabel: true };
      const created = await accept(job);
      expect(created).toMatchObject({ id: job.id, sessionId: job.sessionId, blacklabel: true, status: 'pending' });
      expect(created.attempts).toBe(0);
      expect(await store.jobs.get(job.id)).toEqual(created);
      expect(await store.jobs.get(randomUUID())).toBeUndefined();
    });

    it('finds the stored jobs among ids, and which artwork tokens they hold', async () => {
      const waiting = await accept();
      const done = await complete('e'.repeat(32), Date.now() + HOUR);
      const found = await store.jobs.getMany([waiting.id, randomUUID(), done.id]);
      expect(found.map((job) => job.id).sort()).toEqual([waiting.id, done.id].sort());
      expect(await store.jobs.getMany([])).toEqual([]);
      expect(await store.jobs.heldResultTokens(['e'.repeat(32), 'f'.repeat(32)])).toEqual(new Set(['e'.repeat(32)]));
      expect(await store.jobs.heldResultTokens([])).toEqual(new Set());
    });

    it('finds an artwork by its token only until it expires', async () => {
      const now = Date.now();
      const { id } = await complete('c'.repeat(32), now + HOUR);
      expect((await store.jobs.findByResultToken('c'.repeat(32), now))?.id).toBe(id);
      expect(await store.jobs.findByResultToken('c'.repeat(32), now + 2 * HOUR)).toBeUndefined();
      expect(await store.jobs.findByResultToken('d'.repeat(32), now)).toBeUndefined();
    });

    it('lists expired jobs, leaving active ones', async () => {
      const done = await accept();
      const active = await accept();
      const now = Date.now();
      await store.ledger.failed(done.id, { message: 'x', code: null, expiresAt: now + HOUR, renderMs: null });
      await store.ledger.queued(active.id);
      expect(await store.jobs.expired(now, 10)).toEqual([]);
      const expired = await store.jobs.expired(now + 2 * HOUR, 10);
      expect(expired.map((job) => job.id)).toEqual([done.id]);
    });

    it('counts jobs by status and lists ids of a status oldest first', async () => {
      const first = await accept();
      const second = await accept();
      const third = await accept();
      await store.ledger.queued(third.id);
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
