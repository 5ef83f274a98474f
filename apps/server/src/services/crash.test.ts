import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;

beforeAll(async () => {
  // The test hook makes the worker thread call process.exit during every job's first attempt.
  server = await startTestServer({ TEST_CRASH_FIRST_ATTEMPT: 'true' });
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
