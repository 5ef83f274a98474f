import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTWORK, createHandoffToken, HANDOFF } from '@selfie-mosaic/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { MODES, modeEnv, newSessionId } from '../../test/harness.js';
import { createBackend } from '../create-backend.js';
import { hashHandoffToken } from '../sql/handoff-store.js';
import type { Backend } from '../types.js';
import { sweepExpired } from './sweeper.js';

const HOUR = 60 * 60 * 1000;

/** Retention as promised: once a finished job's time is up, nothing of it is left, in either mode. */
describe.each(MODES)('the retention sweep, %s mode', (mode) => {
  let backend: Backend | undefined;
  let dataDir: string;
  afterEach(async () => {
    await backend?.queue.close();
    await backend?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('removes expired jobs, their artworks and photos, and leaves no trace in the database files', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-sweep-'));
    const config = loadConfig({ DATA_DIR: dataDir, ...(await modeEnv(mode)) });
    backend = await createBackend({ dataDir, storage: config.storage, scale: config.scale });
    const { jobs, storage, ledger } = backend;
    const now = Date.now();
    const photo = Buffer.from('photo bytes');
    // Consents are proof for a regulator and never swept: this one names no session, so the session ids
    // looked for on disk below are the job rows' alone.
    const consent = await backend.consents.add({
      sessionId: null,
      countryIso: 'de',
      language: 'de',
      questionAnswer: 'yes',
      consentGiven: true,
    });

    const add = async (sessionId: string) => {
      const id = crypto.randomUUID();
      const photoKey = await storage.savePhoto(id, photo);
      return { ...(await ledger.accepted({ id, sessionId, blacklabel: false, photoKey }, consent)), photoKey };
    };
    const completed = await add(newSessionId());
    const token = await storage.saveResult(Buffer.from('artwork bytes'), Buffer.from('story bytes'));
    await ledger.queued(completed.id);
    await ledger.started(completed.id, { attempt: 1, id: 'delivery-1' });
    await ledger.completed(completed.id, 'delivery-1', {
      token,
      width: ARTWORK.width,
      height: ARTWORK.height,
      expiresAt: now + HOUR,
      renderMs: null,
    });
    const failed = await add(newSessionId());
    await ledger.failed(failed.id, { message: 'No face', code: 'no_face', expiresAt: now + HOUR, renderMs: null });
    const active = await add(newSessionId());

    expect(await sweepExpired(backend, now + 2 * HOUR)).toBe(2);

    for (const job of [completed, failed]) {
      expect(await jobs.get(job.id)).toBeUndefined();
      await expect(storage.readPhoto(job.photoKey)).rejects.toThrow();
    }
    expect(await storage.openResult(token)).toBeUndefined();
    expect(await storage.openResult(token, 'story')).toBeUndefined();
    expect(await jobs.get(active.id)).toMatchObject({ status: 'pending' });

    if (mode === 'embedded') {
      // Deleted rows are zeroed and the write-ahead log emptied: the session ids are gone from the disk.
      const files = ['selfie-mosaic.sqlite', 'selfie-mosaic.sqlite-wal']
        .map((name) => path.join(dataDir, name))
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file));
      const onDisk = (text: string) => files.some((bytes) => bytes.includes(Buffer.from(text)));
      expect(onDisk(active.sessionId)).toBe(true);
      expect(onDisk(completed.sessionId)).toBe(false);
      expect(onDisk(failed.sessionId)).toBe(false);
      expect(onDisk(token)).toBe(false);
    }
  });

  it('drops the tokens of codes that ran out, then each hand-off once nobody follows it', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-sweep-'));
    const config = loadConfig({ DATA_DIR: dataDir, ...(await modeEnv(mode)) });
    backend = await createBackend({ dataDir, storage: config.storage, scale: config.scale });
    const { handoffs } = backend;
    const now = Date.now();
    const consent = await backend.consents.add({
      sessionId: null,
      countryIso: 'de',
      language: 'de',
      questionAnswer: 'yes',
      consentGiven: true,
    });
    const create = async () => {
      const handoff = {
        id: crypto.randomUUID(),
        token: createHandoffToken(),
        sessionId: newSessionId(),
        consentId: consent.id,
        artworkJobId: null,
        createdAt: now,
        claimExpiresAt: now + HANDOFF.claimMs,
        followExpiresAt: now + HANDOFF.followMs,
      };
      await handoffs.create(handoff);
      return handoff;
    };
    const unused = await create();
    const claimed = await create();
    // Claimed a minute in: followed for a minute longer than the unused one lasts.
    await handoffs.claim(claimed.token, now + 60_000, HANDOFF.followMs);

    await sweepExpired(backend, now + HANDOFF.claimMs);
    // The code ran out: it can never be used, and the desktop still reads that it expired.
    expect(await handoffs.claim(unused.token, now, HANDOFF.followMs)).toBeUndefined();
    expect(await handoffs.get(unused.id)).toMatchObject({ state: 'waiting' });
    expect(await handoffs.get(claimed.id)).toMatchObject({ state: 'connected' });

    await sweepExpired(backend, now + HANDOFF.followMs);
    expect(await handoffs.get(unused.id)).toBeUndefined();
    expect(await handoffs.get(claimed.id)).toMatchObject({ state: 'connected' });
    await sweepExpired(backend, now + 2 * HANDOFF.followMs);
    expect(await handoffs.get(claimed.id)).toBeUndefined();

    if (mode === 'embedded') {
      const files = ['selfie-mosaic.sqlite', 'selfie-mosaic.sqlite-wal']
        .map((name) => path.join(dataDir, name))
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file));
      const onDisk = (text: string) => files.some((bytes) => bytes.includes(Buffer.from(text)));
      for (const handoff of [unused, claimed]) {
        expect(onDisk(handoff.sessionId)).toBe(false);
        expect(onDisk(hashHandoffToken(handoff.token))).toBe(false);
      }
    }
  });
});
