import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, startTestServer } from '../test/harness.js';
import { createBackend } from './create-backend.js';

const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
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

describe.each(MODES)('%s mode', (mode) => {
  it('shuts down gracefully: ends open streams, finishes the running job, keeps the waiting one', async () => {
    const env = await modeEnv(mode);
    const server = await startTestServer(env);
    dataDirs.push(server.dataDir);
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

    // What the next process finds: the running job finished, the waiting one still first in the queue.
    const config = loadConfig({ ...env, DATA_DIR: server.dataDir });
    const backend = await createBackend({ dataDir: config.dataDir, storage: config.storage, scale: config.scale });
    expect((await backend.jobs.get(running))?.status).toBe('completed');
    expect((await backend.jobs.get(waiting))?.status).toBe('queued');
    expect(await backend.queue.position(waiting)).toBe(1);
    await backend.queue.close();
    await backend.close();
  });
});

it('closes promptly although a client holds a connection on which it never sent a request', async () => {
  const server = await startTestServer();
  dataDirs.push(server.dataDir);
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closedByServer = new Promise((resolve) => socket.once('close', resolve));
  // Without closing it, Node waits for such a connection until its headers timeout (60 s).
  await server.close();
  await closedByServer;
  expect(socket.destroyed).toBe(true);
}, 20_000);
