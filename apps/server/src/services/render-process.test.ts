import { execFileSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

/** The render processes this test file's servers started: children of this process running render-host.js. */
function renderProcesses(): number[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return lines
    .split('\n')
    .filter((line) => line.includes('render-host.js'))
    .map((line) => Number.parseInt(line, 10));
}

it('renders in a child process of its own, so the HTTP process holds no face models', async () => {
  expect(renderProcesses()).toHaveLength(1);
  // Ready means the render process has its worker thread and models.
  await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 60_000 }).toBe(200);
});

it('retries the jobs of a render process killed mid-render (as the out-of-memory killer would), and they complete', async () => {
  const client = await new Client(server.url).init();
  const photo = await facePhoto();
  const jobIds = [await client.submit(photo), await client.submit(photo), await client.submit(photo)];
  await expect
    .poll(
      async () => (await Promise.all(jobIds.map((id) => client.status(id)))).some((s) => s.status === 'processing'),
      {
        interval: 10,
        timeout: 60_000,
      },
    )
    .toBe(true);
  const [killed] = renderProcesses();
  process.kill(killed as number, 'SIGKILL');

  for (const jobId of jobIds) {
    expect(await client.waitUntilFinal(jobId)).toMatchObject({ status: 'completed', error_message: null });
  }
  const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  const attempts = db.prepare<[], { attempts: number }>('SELECT attempts FROM jobs').all();
  db.close();
  // The render running when the process died is attempted again; the others may or may not have been sent.
  expect(attempts.reduce((sum, row) => sum + row.attempts, 0)).toBeGreaterThan(jobIds.length);
  expect(renderProcesses()).not.toContain(killed);
  expect(renderProcesses()).toHaveLength(1);
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
});

it('stops its render process when the server closes', async () => {
  const running = renderProcesses();
  const other = await startTestServer();
  const started = renderProcesses().filter((pid) => !running.includes(pid));
  expect(started).toHaveLength(1);
  await other.stop();
  expect(renderProcesses()).toEqual(running);
});
