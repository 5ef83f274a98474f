import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTWORK, MESSAGES } from '@selfie-mosaic/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createMetrics } from '../plugins/metrics.js';
import { createBackend } from './create-backend.js';
import { JobRunner } from './job-runner.js';
import type { RenderPool } from './render-pool.js';
import { StorageHealth } from './storage-health.js';
import type { Backend, ConsentRecord } from './types.js';

/**
 * A worker can die after recording a job's end and before deleting its photo. The queue then delivers the job
 * again (BullMQ once the dead worker's lock runs out): that delivery must delete the photo, not wait for the
 * next sweep, and must not render the job again.
 */

let dataDir: string;
let backend: Backend;
let consent: ConsentRecord;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-runner-'));
  backend = await createBackend({ dataDir });
  consent = await backend.consents.add({
    sessionId: 'session-1700000000000-a',
    countryIso: 'de',
    language: 'de',
    questionAnswer: 'yes',
    consentGiven: true,
  });
});

afterAll(async () => {
  await backend.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A job as a worker that died just after recording its end leaves it: ended, photo still stored. */
async function endedWithPhoto(outcome: 'completed' | 'failed'): Promise<{ id: string; token: string | null }> {
  const { jobs, storage, history } = backend;
  const id = randomUUID();
  await jobs.create({ id, sessionId: consent.sessionId as string, blacklabel: false, photoKey: id });
  await history.recordUpload(id, consent, Date.now());
  await storage.savePhoto(id, Buffer.from(`photo of ${id}`));
  await jobs.markQueued(id, 'pending');
  await jobs.markProcessing(id, 1);
  const expiresAt = Date.now() + 60_000;
  if (outcome === 'failed') {
    await jobs.markFailed(id, { message: MESSAGES.noFace, code: 'no_face', expiresAt });
    return { id, token: null };
  }
  const token = await storage.saveResult(Buffer.from('artwork'), Buffer.from('its story version'));
  await jobs.markCompleted(id, { token, width: ARTWORK.width, height: ARTWORK.height, expiresAt });
  return { id, token };
}

async function storedPhotos(): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of backend.storage.listPhotos()) keys.push(...page.map((entry) => entry.key));
  return keys;
}

it('deletes the photo of a job delivered again after its end was recorded, and leaves its outcome as it was', async () => {
  const completed = await endedWithPhoto('completed');
  const failed = await endedWithPhoto('failed');
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
  await backend.queue.add(completed.id);
  await backend.queue.add(failed.id);
  await runner.start();

  await vi.waitFor(async () => expect(await storedPhotos()).toEqual([]), { timeout: 5000 });
  expect(rendered).toEqual([]);
  expect(await backend.jobs.get(completed.id)).toMatchObject({
    status: 'completed',
    photoKey: null,
    resultToken: completed.token,
  });
  expect(await backend.jobs.get(failed.id)).toMatchObject({ status: 'failed', photoKey: null, errorCode: 'no_face' });
  // The deletion log says when, for the regulator export.
  const logged = await backend.operators.jobsOfConsents([consent.id]);
  expect(logged.map((job) => job.photoDeletedAt)).toEqual([expect.any(Number), expect.any(Number)]);
  // The artwork stays.
  const artworks: string[] = [];
  for await (const page of backend.storage.listResults()) artworks.push(...page.map((entry) => entry.key));
  expect(new Set(artworks)).toEqual(new Set([completed.token]));
  health.close();
});
