import { rmSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
let dataDir: string;

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function openStream(url: string): Promise<{ ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const ended = new Promise<string>((done) => {
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => done(body));
        res.on('close', () => done(body));
      });
      resolve({ ended });
    });
    req.on('error', reject);
    req.end();
  });
}

it('shuts down gracefully: ends open streams, finishes the running job, keeps the waiting one', async () => {
  server = await startTestServer();
  dataDir = server.dataDir;
  const client = await new Client(server.url).init();
  const photo = await facePhoto();
  const running = await client.submit(photo);
  const waiting = await client.submit(photo);
  const stream = await openStream(`${server.url}/api/queue/stream/${waiting}`);
  for (;;) {
    if ((await client.status(running)).status === 'processing') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }

  await server.close();
  expect(await stream.ended).toContain('"status":"queued"');

  const db = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  const status = db.prepare<[string], { status: string }>('SELECT status FROM jobs WHERE id = ?');
  expect(status.get(running)?.status).toBe('completed');
  expect(status.get(waiting)?.status).toBe('queued');
  db.close();
});
