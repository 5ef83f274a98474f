import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, freePort, startTestServer, type TestServer } from '../test/harness.js';
import { spawnServer, waitForReady } from '../test/server-process.js';
import { createBackend } from './create-backend.js';

let server: TestServer | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('completes all 20 queued jobs when the server is stopped mid-way and started again', async () => {
  const env = { RATE_LIMIT_UPLOAD: '100', RATE_LIMIT_CONSENT: '100' };
  server = await startTestServer(env);
  dataDir = server.dataDir;
  let client = await new Client(server.url).init();
  const photo = await facePhoto();
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push(await client.submit(photo));

  // Stop once a few are done: graceful shutdown finishes the running job and leaves the rest queued.
  for (;;) {
    const done = (await Promise.all(ids.map((id) => client.status(id)))).filter((s) => s.status === 'completed');
    if (done.length >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.close();

  server = await startTestServer(env, { dataDir });
  client = await new Client(server.url).init();
  const before = await Promise.all(ids.map((id) => client.status(id)));
  expect(before.filter((s) => s.status === 'queued').length).toBeGreaterThan(0);
  // Positions after the restart still count the jobs ahead: 1, 2, 3… for those waiting.
  const positions = before.filter((s) => s.status === 'queued').map((s) => s.queue_position);
  expect(positions).toEqual(positions.map((_, i) => i + 1));

  const final = [];
  for (const id of ids) final.push(await client.waitUntilFinal(id));
  expect(final.map((s) => s.status)).toEqual(Array(20).fill('completed'));
}, 600_000);

it('loses no job when the server process is killed (SIGKILL) mid-job', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-kill-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child = spawnServer(dir, port);
  try {
    await waitForReady(url);
    let client = await new Client(url).init();
    const photo = await facePhoto();
    const ids = [await client.submit(photo), await client.submit(photo), await client.submit(photo)];
    for (;;) {
      if ((await client.status(ids[0] as string)).status === 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    child = spawnServer(dir, port);
    await waitForReady(url);
    client = await new Client(url).init();
    const final = [];
    for (const id of ids) final.push(await client.waitUntilFinal(id));
    expect(final.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);

it('queues and completes a job that was accepted but not yet queued when the process stopped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-pending-'));
  try {
    // What an upload leaves behind if the process dies between storing the job and queueing it.
    const backend = await createBackend({ dataDir: dir });
    const jobId = randomUUID();
    const photoKey = await backend.storage.savePhoto(jobId, await facePhoto());
    const sessionId = 'session-1700000000000-pending1';
    const consent = await backend.consents.add({
      sessionId,
      countryIso: 'de',
      language: 'de',
      questionAnswer: 'yes',
      consentGiven: true,
    });
    await backend.ledger.accepted({ id: jobId, sessionId, blacklabel: false, photoKey }, consent);
    await backend.close();

    const restarted = await startTestServer({}, { dataDir: dir });
    try {
      const client = await new Client(restarted.url).init();
      expect((await client.waitUntilFinal(jobId)).status).toBe('completed');
    } finally {
      await restarted.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
