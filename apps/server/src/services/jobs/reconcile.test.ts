import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ARTWORK } from '@selfie-mosaic/contract';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modeEnv } from '../../test/harness.js';
import { type BackendOptions, createBackend } from '../create-backend.js';
import type { Backend, StoredEntry } from '../types.js';
import { ORPHAN_GRACE_MS, reconcileStorage } from './reconcile.js';

/** Start-up and the sweep bring storage in line with the records, in both modes and on every storage. */

let s3: S3rver;
let endpoint = '';
const dirs: string[] = [];
const savedKeys = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-reconcile-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDir() });
  const { port } = (await s3.run()) as { port: number };
  endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
});

afterAll(async () => {
  await s3.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', savedKeys.id],
    ['AWS_SECRET_ACCESS_KEY', savedKeys.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function scaleOptions(): Promise<BackendOptions['scale']> {
  const env = await modeEnv('scale');
  return {
    redisUrl: env.REDIS_URL as string,
    databaseUrl: env.DATABASE_URL as string,
    queueName: env.QUEUE_NAME as string,
    lockDurationMs: 2000,
  };
}

async function bucket(): Promise<BackendOptions['storage']> {
  const name = `reconcile-${randomUUID().slice(0, 8)}`;
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
  await admin.send(new CreateBucketCommand({ Bucket: name }));
  admin.destroy();
  return { kind: 's3', bucket: name, endpoint, region: 'us-east-1' };
}

const setups: Record<string, () => Promise<BackendOptions>> = {
  'embedded, local directory': async () => ({ dataDir: tempDir() }),
  'scale, shared directory': async () => ({
    dataDir: tempDir(),
    storage: { kind: 'directory', dir: tempDir() },
    scale: await scaleOptions(),
  }),
  'scale, S3': async () => ({ dataDir: tempDir(), storage: await bucket(), scale: await scaleOptions() }),
};

async function keys(pages: AsyncIterable<StoredEntry[]>): Promise<string[]> {
  const found: string[] = [];
  for await (const page of pages) found.push(...page.map((entry) => entry.key));
  // An artwork's post and story files stand for one token.
  return [...new Set(found)].sort();
}

for (const [name, setup] of Object.entries(setups)) {
  describe(`reconciliation: ${name}`, () => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await createBackend(await setup());
    });
    afterAll(async () => {
      await backend.close();
    });

    it('deletes photos of ended jobs and files without a record, and keeps what a job still needs', async () => {
      const { jobs, storage, ledger } = backend;
      const consent = await backend.consents.add({
        sessionId: 'session-1700000000000-a',
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'yes',
        consentGiven: true,
      });
      const waiting = randomUUID();
      await ledger.accepted(
        { id: waiting, sessionId: 'session-1700000000000-a', blacklabel: false, photoKey: waiting },
        consent,
      );
      await storage.savePhoto(waiting, Buffer.from('waiting photo'));
      // Completed, but its photo's delete failed: the photo must still go.
      const done = randomUUID();
      await ledger.accepted(
        { id: done, sessionId: 'session-1700000000000-b', blacklabel: false, photoKey: done },
        consent,
      );
      await storage.savePhoto(done, Buffer.from('done photo'));
      const artwork = await storage.saveResult(Buffer.from('artwork'), Buffer.from('its story version'));
      await ledger.queued(done);
      await ledger.started(done, { attempt: 1, id: 'delivery-1' });
      await ledger.completed(done, 'delivery-1', {
        token: artwork,
        width: ARTWORK.width,
        height: ARTWORK.height,
        expiresAt: Date.now() + 60_000,
        renderMs: null,
      });
      // What a crash between a file and its record leaves: a photo and an artwork nobody owns.
      const orphanPhoto = randomUUID();
      await storage.savePhoto(orphanPhoto, Buffer.from('orphan photo'));
      const orphanArtwork = await storage.saveResult(Buffer.from('orphan artwork'), Buffer.from('orphan story'));

      // Within the grace another process may be about to write their records: they stay for now.
      expect(await reconcileStorage(backend, Date.now() - ORPHAN_GRACE_MS)).toEqual({
        photos: 1,
        results: 0,
        partials: 0,
      });
      expect(await keys(storage.listPhotos())).toEqual([orphanPhoto, waiting].sort());
      expect(await keys(storage.listResults())).toEqual([artwork, orphanArtwork].sort());
      expect((await jobs.get(done))?.photoKey).toBeNull();
      // The deletion log says when, for the regulator export.
      const logged = new Map((await backend.operators.jobsOfConsents([consent.id])).map((job) => [job.jobId, job]));
      expect(logged.get(done)?.photoDeletedAt).toBeGreaterThan(0);
      expect(logged.get(waiting)?.photoDeletedAt).toBeNull();

      // Past the grace (or at an embedded start) they go; what jobs hold stays.
      expect(await reconcileStorage(backend, Date.now() + 5000)).toEqual({ photos: 1, results: 1, partials: 0 });
      expect(await keys(storage.listPhotos())).toEqual([waiting]);
      expect(await keys(storage.listResults())).toEqual([artwork]);
      // Both files of the orphan went, both of the held artwork stayed.
      expect(await storage.openResult(orphanArtwork, 'story')).toBeUndefined();
      expect((await storage.openResult(artwork, 'story'))?.size).toBe('its story version'.length);
      expect((await storage.readPhoto(waiting)).toString()).toBe('waiting photo');
    });
  });
}

it('removes a write a crash cut short, once it is older than the cut-off', async () => {
  const dataDir = tempDir();
  const backend = await createBackend({ dataDir });
  try {
    const partial = path.join(dataDir, 'tmp', randomUUID());
    writeFileSync(partial, Buffer.alloc(1000));
    expect((await reconcileStorage(backend, Date.now() - ORPHAN_GRACE_MS)).partials).toBe(0);
    const old = (Date.now() - ORPHAN_GRACE_MS - 60_000) / 1000;
    utimesSync(partial, old, old);
    expect((await reconcileStorage(backend, Date.now() - ORPHAN_GRACE_MS)).partials).toBe(1);
  } finally {
    await backend.close();
  }
});
