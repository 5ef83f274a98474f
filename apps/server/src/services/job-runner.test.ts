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
 * A worker can die after recording a job's end and before the rest of its books: the end in the job's history,
 * the photo's deletion. The queue then delivers the job again (BullMQ once the dead worker's lock runs out):
 * that delivery must finish them, not leave the photo to the next sweep, and must not render the job again.
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

it('finishes the books of a job delivered again after its end was recorded: its history, its photo; its outcome stays', async () => {
  const completed = await endedWithPhoto('completed');
  const failed = await endedWithPhoto('failed');
  // This one's worker recorded the end in its history too, then died before deleting the photo.
  const recorded = await endedWithPhoto('completed');
  const end = { outcome: 'completed', errorCode: null, renderMs: 1234, at: Date.now() } as const;
  await backend.history.recordEnd(recorded.id, end);
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
  for (const { id } of [completed, failed, recorded]) await backend.queue.add(id);
  await runner.start();

  await vi.waitFor(async () => expect(await storedPhotos()).toEqual([]), { timeout: 5000 });
  expect(rendered).toEqual([]);
  expect(await backend.jobs.get(completed.id)).toMatchObject({
    status: 'completed',
    photoKey: null,
    resultToken: completed.token,
  });
  expect(await backend.jobs.get(failed.id)).toMatchObject({ status: 'failed', photoKey: null, errorCode: 'no_face' });
  // The history has each job's end, and says when its photo was deleted, for the regulator export.
  const logged = new Map((await backend.operators.jobsOfConsents([consent.id])).map((job) => [job.jobId, job]));
  expect(logged.get(completed.id)).toMatchObject({ outcome: 'completed', errorCode: null, renderMs: null });
  expect(logged.get(failed.id)).toMatchObject({ outcome: 'failed', errorCode: 'no_face' });
  // An end already recorded stays as it was.
  expect(logged.get(recorded.id)).toMatchObject({ outcome: 'completed', renderMs: 1234, endedAt: end.at });
  for (const job of logged.values()) {
    expect(job.endedAt).toEqual(expect.any(Number));
    expect(job.photoDeletedAt).toEqual(expect.any(Number));
  }
  // The artwork stays.
  const artworks: string[] = [];
  for await (const page of backend.storage.listResults()) artworks.push(...page.map((entry) => entry.key));
  expect(new Set(artworks)).toEqual(new Set([completed.token, recorded.token]));
  health.close();
});
