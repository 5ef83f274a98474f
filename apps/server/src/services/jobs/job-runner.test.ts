import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTWORK, MESSAGES } from '@selfie-mosaic/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createBackend } from '../create-backend.js';
import { createMetrics } from '../metrics.js';
import type { RenderPool } from '../render-pool.js';
import { StorageHealth } from '../storage-health.js';
import type { Backend, ConsentRecord, JobHistoryRecord } from '../types.js';
import { JobRunner } from './job-runner.js';

/**
 * A worker can die after recording a job's end and before deleting its photo. The queue then delivers the
 * job again (BullMQ once the dead worker's lock runs out): that delivery must delete the photo and record
 * when, not leave it to the next sweep, must not render the job again, and leaves its end as recorded.
 * The end in the job's row and in its history are one ledger transition, so no delivery finds one
 * without the other: the photo is all a dead worker can leave behind.
 */

let dataDir: string;
let backend: Backend;
let consent: ConsentRecord;

const consentInput = () =>
  ({
    sessionId: 'session-1700000000000-a',
    countryIso: 'de',
    language: 'de',
    questionAnswer: 'yes',
    consentGiven: true,
  }) as const;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-runner-'));
  backend = await createBackend({ dataDir });
  consent = await backend.consents.add(consentInput());
});

afterAll(async () => {
  await backend.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A job as a worker that died just after recording its end leaves it: ended, photo still stored. */
async function endedWithPhoto(outcome: 'completed' | 'failed'): Promise<{ id: string; token: string | null }> {
  const { storage, ledger } = backend;
  const id = randomUUID();
  await ledger.accepted({ id, sessionId: consent.sessionId as string, blacklabel: false, photoKey: id }, consent);
  await storage.savePhoto(id, Buffer.from(`photo of ${id}`));
  await ledger.queued(id);
  await ledger.started(id, { attempt: 1, id: 'delivery-1' });
  const expiresAt = Date.now() + 60_000;
  if (outcome === 'failed') {
    await ledger.failed(id, { message: MESSAGES.noFace, code: 'no_face', expiresAt, renderMs: 90 }, 'delivery-1');
    return { id, token: null };
  }
  const token = await storage.saveResult(Buffer.from('artwork'), Buffer.from('its story version'));
  await ledger.completed(id, 'delivery-1', {
    token,
    width: ARTWORK.width,
    height: ARTWORK.height,
    expiresAt,
    renderMs: 1234,
  });
  return { id, token };
}

async function storedPhotos(): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of backend.storage.listPhotos()) keys.push(...page.map((entry) => entry.key));
  return keys;
}

async function history(): Promise<Map<string, JobHistoryRecord>> {
  return new Map((await backend.operators.jobsOfConsents([consent.id])).map((job) => [job.jobId, job]));
}

it('finishes the books of a job delivered again after its end was recorded: its photo and when it went; its outcome stays', async () => {
  const completed = await endedWithPhoto('completed');
  const failed = await endedWithPhoto('failed');
  // Their history as the dead workers left it.
  const recorded = await history();
  const rendered: string[] = [];
  const pool: RenderPool = {
    async render(task) {
      rendered.push(task.photo.toString());
      throw new Error('an ended job was rendered again');
    },
    async warmUp() {},
    async close() {},
  };
  const log = Fastify({ logger: false }).log;
  const health = new StorageHealth({ log, probe: async () => {} });
  const runner = new JobRunner({
    backend,
    pool,
    health,
    log,
    metrics: createMetrics(backend),
    maxAttempts: 3,
    resultTtlMs: 60_000,
    concurrency: 1,
  });
  // The queue delivers both jobs again, as it does a dead worker's.
  for (const { id } of [completed, failed]) await backend.queue.add(id);
  await runner.start();

  await vi.waitFor(async () => expect(await storedPhotos()).toEqual([]), { timeout: 5000 });
  expect(rendered).toEqual([]);
  expect(await backend.jobs.get(completed.id)).toMatchObject({
    status: 'completed',
    photoKey: null,
    resultToken: completed.token,
  });
  expect(await backend.jobs.get(failed.id)).toMatchObject({ status: 'failed', photoKey: null, errorCode: 'no_face' });
  // The history keeps each job's end as it was recorded, and says when its photo was deleted, for the
  // regulator export.
  const logged = await history();
  expect(logged.get(completed.id)).toMatchObject({
    outcome: 'completed',
    errorCode: null,
    renderMs: 1234,
    endedAt: recorded.get(completed.id)?.endedAt,
  });
  expect(logged.get(failed.id)).toMatchObject({
    outcome: 'failed',
    errorCode: 'no_face',
    endedAt: recorded.get(failed.id)?.endedAt,
  });
  for (const job of logged.values()) {
    expect(job.endedAt).toEqual(expect.any(Number));
    expect(job.photoDeletedAt).toEqual(expect.any(Number));
  }
  // The artwork stays.
  const artworks: string[] = [];
  for await (const page of backend.storage.listResults()) artworks.push(...page.map((entry) => entry.key));
  expect(new Set(artworks)).toEqual(new Set([completed.token]));
  health.close();
});

it('keeps a render that finished while the database was away: recorded once it is back, exactly once, its photo deleted', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-runner-'));
  const own = await createBackend({ dataDir: dir });
  const covering = await own.consents.add({ ...consentInput(), sessionId: 'session-1700000000000-b' });
  const id = randomUUID();
  await own.ledger.accepted({ id, sessionId: 'session-1700000000000-b', blacklabel: false, photoKey: id }, covering);
  await own.storage.savePhoto(id, Buffer.from(`photo of ${id}`));
  // The database goes away while the render runs, and comes back a moment after it finished.
  let databaseAway = false;
  const lost = () => new Error('Connection terminated unexpectedly');
  const completed = own.ledger.completed.bind(own.ledger);
  own.ledger.completed = async (...args) => {
    if (databaseAway) throw lost();
    return completed(...args);
  };
  let renders = 0;
  const pool: RenderPool = {
    async render() {
      renders++;
      databaseAway = true;
      setTimeout(() => {
        databaseAway = false;
      }, 300);
      const jpeg = new Uint8Array(Buffer.from('artwork'));
      const story = { jpeg: new Uint8Array(Buffer.from('its story version')), width: 1080, height: 1920 };
      const plan = new Uint8Array(Buffer.from('its laying plan'));
      return {
        kind: 'artwork',
        jpeg,
        width: ARTWORK.width,
        height: ARTWORK.height,
        story,
        plan,
        tiles: 1,
        timings: {},
      };
    },
    async warmUp() {},
    async close() {},
  };
  const log = Fastify({ logger: false }).log;
  const health = new StorageHealth({
    log,
    probeIntervalMs: 20,
    probe: async () => {
      if (databaseAway) throw lost();
    },
  });
  const runner = new JobRunner({
    backend: own,
    pool,
    health,
    log,
    metrics: createMetrics(own),
    maxAttempts: 3,
    resultTtlMs: 60_000,
    concurrency: 1,
  });
  await runner.start();
  await own.ledger.queued(id);
  await own.queue.add(id);

  await vi.waitFor(async () => expect((await own.jobs.get(id))?.status).toBe('completed'), { timeout: 5000 });
  expect(renders).toBe(1);
  const job = await own.jobs.get(id);
  const artworks: string[] = [];
  for await (const page of own.storage.listResults()) artworks.push(...page.map((entry) => entry.key));
  expect(new Set(artworks)).toEqual(new Set([job?.resultToken]));
  await vi.waitFor(async () => expect((await own.jobs.get(id))?.photoKey).toBeNull(), { timeout: 5000 });
  const [recorded] = await own.operators.jobsOfConsents([covering.id]);
  expect(recorded).toMatchObject({ outcome: 'completed', photoDeletedAt: expect.any(Number) });
  health.close();
  await own.queue.close();
  await own.close();
  rmSync(dir, { recursive: true, force: true });
});
