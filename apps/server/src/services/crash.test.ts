import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, RENDER_FAILED, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;

beforeAll(async () => {
  // The test hook makes the worker thread call process.exit during every job's first attempt.
  server = await startTestServer({ TEST_CRASH_ATTEMPTS: '1' });
});

afterAll(async () => {
  await server.stop();
});

it('retries a job whose worker thread died mid-job, and it completes', async () => {
  const client = await new Client(server.url).init();
  const jobIds = [await client.submit(await facePhoto()), await client.submit(await facePhoto())];
  for (const jobId of jobIds) {
    expect(await client.waitUntilFinal(jobId)).toMatchObject({ status: 'completed', error_message: null });
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(200);
  }
  const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  const attempts = db.prepare<[], { attempts: number }>('SELECT attempts FROM jobs').all();
  db.close();
  expect(attempts).toEqual([{ attempts: 2 }, { attempts: 2 }]);
  // The pool replaced the dead thread and keeps serving.
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
});

it('fails a job with a clear message after 3 attempts that all crashed', async () => {
  const strict = await startTestServer({ TEST_CRASH_ATTEMPTS: '3' });
  try {
    const client = await new Client(strict.url).init();
    const jobId = await client.submit(await facePhoto());
    expect(await client.waitUntilFinal(jobId)).toEqual(RENDER_FAILED);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(404);
    const db = new Database(path.join(strict.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
    expect(db.prepare('SELECT attempts FROM jobs').get()).toEqual({ attempts: 3 });
    db.close();
  } finally {
    await strict.stop();
  }
});
