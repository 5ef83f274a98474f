import { randomUUID } from 'node:crypto';
import { createHandoffToken, HANDOFF } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsentRecord, ConsentStore, HandoffStore, JobLedger, NewHandoff } from '../services/types.js';

export interface HandoffsUnderTest {
  handoffs: HandoffStore;
  consents: ConsentStore;
  /** Writes the jobs an artwork hand-off names. */
  ledger: JobLedger;
  /** The hand-off's row as stored, every column: what a copy of the database would show. */
  row(id: string): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

const MINUTE = 60_000;
const CLAIM_MS = 10 * MINUTE;

/**
 * Behaviour every HandoffStore adapter must show: a code works once, only until it runs out, and only
 * for the session that asked for it; two phones racing with one code cannot both have it; and the code's
 * token is never stored as it is.
 */
export function describeHandoffContract(name: string, factory: () => Promise<HandoffsUnderTest>): void {
  describe(`hand-off store contract: ${name}`, () => {
    let store: HandoffsUnderTest;
    let now: number;
    beforeEach(async () => {
      store = await factory();
      now = Date.now();
    });
    afterEach(async () => {
      await store.close();
    });

    const consentOf = (sessionId: string) =>
      store.consents.add({ sessionId, countryIso: 'ae', language: 'ae-ar', questionAnswer: 'yes', consentGiven: true });
    const newHandoff = (consent: ConsentRecord, overrides: Partial<NewHandoff> = {}): NewHandoff => ({
      id: randomUUID(),
      token: createHandoffToken(),
      sessionId: consent.sessionId as string,
      consentId: consent.id,
      artworkJobId: null,
      createdAt: now,
      claimExpiresAt: now + CLAIM_MS,
      followExpiresAt: now + HANDOFF.followMs,
      ...overrides,
    });
    /** A desktop session with its consent and a code waiting for a phone. */
    const waiting = async (overrides: Partial<NewHandoff> = {}) => {
      const consent = await consentOf(`session-1700000000000-${randomUUID().slice(0, 8)}`);
      const handoff = newHandoff(consent, overrides);
      expect(await store.handoffs.create(handoff)).toMatchObject({ id: handoff.id, state: 'waiting', jobId: null });
      return { consent, handoff };
    };
    /** A completed job of the session, its artwork kept for an hour. */
    const artworkOf = async (consent: ConsentRecord) => {
      const id = randomUUID();
      await store.ledger.accepted(
        { id, sessionId: consent.sessionId as string, blacklabel: false, photoKey: id },
        consent,
      );
      await store.ledger.queued(id);
      await store.ledger.started(id, { attempt: 1, id: 'delivery-1' });
      const result = { token: randomUUID().replaceAll('-', ''), width: 1, height: 1, renderMs: null };
      await store.ledger.completed(id, 'delivery-1', { ...result, expiresAt: now + 60 * MINUTE });
      return id;
    };

    it('lets a code be claimed once: the phone gets the session and consent, and the token is gone for good', async () => {
      const { consent, handoff } = await waiting();
      const claim = await store.handoffs.claim(handoff.token, now + MINUTE, HANDOFF.followMs);
      expect(claim?.handoff).toMatchObject({
        id: handoff.id,
        sessionId: handoff.sessionId,
        consentId: consent.id,
        state: 'connected',
        followExpiresAt: now + MINUTE + HANDOFF.followMs,
      });
      expect(claim?.consent).toMatchObject({ id: consent.id, countryIso: 'ae', language: 'ae-ar' });
      expect(await store.handoffs.claim(handoff.token, now + MINUTE, HANDOFF.followMs)).toBeUndefined();
      expect((await store.row(handoff.id))?.token_hash).toBeNull();
      expect(await store.handoffs.get(handoff.id)).toMatchObject({ state: 'connected' });
    });

    it('refuses a code once it ran out, and a token never issued', async () => {
      const { handoff } = await waiting();
      expect(await store.handoffs.claim(handoff.token, now + CLAIM_MS, HANDOFF.followMs)).toBeUndefined();
      expect(await store.handoffs.claim(createHandoffToken(), now, HANDOFF.followMs)).toBeUndefined();
      expect(await store.handoffs.get(handoff.id)).toMatchObject({ state: 'waiting' });
      // Just before the end it still works.
      expect(await store.handoffs.claim(handoff.token, now + CLAIM_MS - 1, HANDOFF.followMs)).toBeDefined();
    });

    it('notes the first hand-off on the consent, and keeps that time', async () => {
      const consent = await consentOf('session-1700000000000-twice001');
      const first = newHandoff(consent);
      const second = newHandoff(consent);
      await store.handoffs.create(first);
      await store.handoffs.create(second);
      const claimed = await store.handoffs.claim(first.token, now + MINUTE, HANDOFF.followMs);
      expect(claimed?.consent.handedOffAt).toBe(new Date(now + MINUTE).toISOString());
      const again = await store.handoffs.claim(second.token, now + 2 * MINUTE, HANDOFF.followMs);
      expect(again?.consent.handedOffAt).toBe(new Date(now + MINUTE).toISOString());
      expect(await store.consents.coveringConsent(consent.sessionId as string)).toMatchObject({
        handedOffAt: new Date(now + MINUTE).toISOString(),
      });
    });

    it('takes the phone’s progress and photo only from the hand-off’s own session, while it is followed', async () => {
      const { handoff } = await waiting();
      const other = 'session-1700000000000-other001';
      const jobId = randomUUID();
      // Nobody has claimed it yet: there is no phone to report anything.
      expect(await store.handoffs.progress(handoff.id, handoff.sessionId, 'uploading', now)).toBeUndefined();
      await store.handoffs.claim(handoff.token, now, HANDOFF.followMs);

      expect(await store.handoffs.progress(handoff.id, other, 'uploading', now)).toBeUndefined();
      expect(await store.handoffs.submitted(handoff.id, other, jobId, now)).toBeUndefined();
      expect(await store.handoffs.progress(handoff.id, handoff.sessionId, 'uploading', now)).toMatchObject({
        state: 'uploading',
      });
      expect(await store.handoffs.progress(handoff.id, handoff.sessionId, 'connected', now)).toMatchObject({
        state: 'connected',
      });
      const followEnd = now + HANDOFF.followMs;
      expect(await store.handoffs.submitted(handoff.id, handoff.sessionId, jobId, followEnd)).toBeUndefined();
      expect(await store.handoffs.submitted(handoff.id, handoff.sessionId, jobId, now)).toMatchObject({
        state: 'submitted',
        jobId,
      });
      // Submitted is the end: nothing moves it back.
      expect(await store.handoffs.progress(handoff.id, handoff.sessionId, 'uploading', now)).toBeUndefined();
      expect(await store.handoffs.get(handoff.id)).toMatchObject({ state: 'submitted', jobId });
      expect(await store.handoffs.progress(randomUUID(), handoff.sessionId, 'uploading', now)).toBeUndefined();
    });

    it("opens only the session's own completed artwork", async () => {
      const owner = await consentOf('session-1700000000000-owner001');
      const stranger = await consentOf('session-1700000000000-strang01');
      const artwork = await artworkOf(owner);
      const foreign = newHandoff(stranger, { artworkJobId: artwork });
      expect(await store.handoffs.create(foreign)).toBeUndefined();
      expect(await store.handoffs.get(foreign.id)).toBeUndefined();

      const pendingId = randomUUID();
      await store.ledger.accepted(
        { id: pendingId, sessionId: owner.sessionId as string, blacklabel: false, photoKey: pendingId },
        owner,
      );
      expect(await store.handoffs.create(newHandoff(owner, { artworkJobId: pendingId }))).toBeUndefined();

      const own = newHandoff(owner, { artworkJobId: artwork });
      expect(await store.handoffs.create(own)).toMatchObject({ artworkJobId: artwork, jobId: null });
      const claim = await store.handoffs.claim(own.token, now, HANDOFF.followMs);
      expect(claim?.handoff.artworkJobId).toBe(artwork);
    });

    it('never stores the token as it is', async () => {
      const { handoff } = await waiting();
      const stored = JSON.stringify(await store.row(handoff.id));
      expect(stored).toContain(handoff.id);
      for (const form of [handoff.token, handoff.token.toLowerCase(), Buffer.from(handoff.token).toString('hex')]) {
        expect(stored).not.toContain(form);
      }
    });

    it('gives a code to exactly one of many phones claiming it at once', async () => {
      const { handoff } = await waiting();
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => store.handoffs.claim(handoff.token, now, HANDOFF.followMs)),
      );
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    });

    it('sweeps tokens of codes that ran out, then each hand-off once its follow window ended', async () => {
      const { handoff: unused } = await waiting();
      const { handoff: claimed } = await waiting();
      await store.handoffs.claim(claimed.token, now + MINUTE, HANDOFF.followMs);

      expect(await store.handoffs.sweep(now + CLAIM_MS - 1)).toBe(0);
      expect((await store.row(unused.id))?.token_hash).not.toBeNull();
      expect(await store.handoffs.sweep(now + CLAIM_MS)).toBe(1);
      expect((await store.row(unused.id))?.token_hash).toBeNull();
      // The desktop can still read that its code ran out until the follow window ends.
      expect(await store.handoffs.get(unused.id)).toMatchObject({ state: 'waiting' });

      expect(await store.handoffs.sweep(now + HANDOFF.followMs)).toBe(1);
      expect(await store.handoffs.get(unused.id)).toBeUndefined();
      expect(await store.handoffs.get(claimed.id)).toBeDefined();
      expect(await store.handoffs.sweep(now + MINUTE + HANDOFF.followMs)).toBe(1);
      expect(await store.handoffs.get(claimed.id)).toBeUndefined();
    });
  });
}
