import { rmSync } from 'node:fs';
import { ARTWORK, type QueueStatus, STORY_ARTWORK } from '@selfie-mosaic/contract';
import { EventSource } from 'eventsource';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, RENDER_FAILED, startTestServer, type TestServer } from '../test/harness.js';

/** The job lifecycle, positions, restart and retry: the same behaviour in embedded and scale mode. */
describe.each(MODES)('job lifecycle, %s mode', (mode) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close().catch(() => {});
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>, dataDir?: string): Promise<TestServer> {
    const server = await startTestServer(
      { RATE_LIMIT_UPLOAD: '100', RATE_LIMIT_CONSENT: '100', ...env },
      dataDir ? { dataDir } : {},
    );
    servers.push(server);
    return server;
  }

  function follow(url: string, jobId: string): Promise<QueueStatus[]> {
    return new Promise((resolve, reject) => {
      const messages: QueueStatus[] = [];
      const source = new EventSource(`${url}/api/queue/stream/${jobId}`);
      source.onmessage = (event) => {
        const message = JSON.parse(event.data) as QueueStatus;
        messages.push(message);
        if (message.status === 'completed' || message.status === 'failed') {
          source.close();
          resolve(messages);
        }
      };
      source.onerror = (error) => {
        source.close();
        reject(new Error(`stream failed after ${messages.length} messages: ${error.message}`));
      };
    });
  }

  it('takes an upload through the queue to a finished artwork, counting positions down on the stream', async () => {
    const server = await start(await modeEnv(mode));
    const client = await new Client(server.url).init();
    const photo = await facePhoto();
    const first = await client.submit(photo);
    await client.submit(photo);
    const third = await client.submit(photo);
    const messages = await follow(server.url, third);
    await client.waitUntilFinal(first);

    const positions = messages.filter((m) => m.status === 'queued').map((m) => m.queue_position);
    expect(positions.slice(-2)).toEqual([2, 1]);
    expect(messages.map((m) => m.status).slice(-2)).toEqual(['processing', 'completed']);
    expect(messages.at(-1)).toEqual({
      status: 'completed',
      queue_position: 0,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });

    const result = (await (await client.get(`/api/result/${third}`)).json()) as {
      file_path: string;
      story_path: string;
    };
    const jpeg = Buffer.from(await (await fetch(`${server.url}${result.file_path}`)).arrayBuffer());
    expect(await sharp(jpeg).metadata()).toMatchObject({
      format: 'jpeg',
      width: ARTWORK.width,
      height: ARTWORK.height,
    });
    const story = Buffer.from(await (await fetch(`${server.url}${result.story_path}`)).arrayBuffer());
    expect(await sharp(story).metadata()).toMatchObject({
      format: 'jpeg',
      width: STORY_ARTWORK.width,
      height: STORY_ARTWORK.height,
    });
  });

  it("tells each job the seconds until its artwork is ready, from the workers' measured renders", async () => {
    const server = await start(await modeEnv(mode));
    const client = await new Client(server.url).init();
    const photo = await facePhoto();
    // One render measured first, so the estimates below rest on this machine's real render time.
    await client.waitUntilFinal(await client.submit(photo));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await client.submit(photo));
    const last = ids.at(-1) as string;
    const [polled, messages] = await Promise.all([client.status(last), follow(server.url, last)]);

    const waiting = [polled, ...messages].filter((m) => m.status === 'queued' || m.status === 'processing');
    expect(waiting.length).toBeGreaterThan(0);
    for (const message of waiting) {
      expect(Number.isInteger(message.eta_seconds)).toBe(true);
      expect(message.eta_seconds).toBeGreaterThanOrEqual(1);
    }
    // Further back in the queue is never sooner.
    const queued = messages.filter((m) => m.status === 'queued');
    for (let i = 1; i < queued.length; i++) {
      const [before, after] = [queued[i - 1] as QueueStatus, queued[i] as QueueStatus];
      if (after.queue_position < before.queue_position)
        expect(after.eta_seconds).toBeLessThanOrEqual(before.eta_seconds as number);
    }
    expect(messages.at(-1)?.eta_seconds).toBeNull();
    expect((await client.status(last)).eta_seconds).toBeNull();
    for (const id of ids) await client.waitUntilFinal(id);
  });

  it('keeps queued jobs and their order across a restart, and completes them all', async () => {
    const env = await modeEnv(mode);
    let server = await start(env);
    let client = await new Client(server.url).init();
    const photo = await facePhoto();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await client.submit(photo));
    while ((await client.status(ids[0] as string)).status !== 'completed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Graceful stop: the running job finishes, the rest stay queued in SQLite or Redis.
    await server.close();

    server = await start(env, server.dataDir);
    client = await new Client(server.url).init();
    // The restarted server renders at once, so a job can start between two of these reads (two jobs
    // then both read first in line): read until one pass sees the queue stand still.
    const inOrder = async () => {
      const now = await Promise.all(ids.map((id) => client.status(id)));
      const waiting = now.filter((s) => s.status === 'queued').map((s) => s.queue_position);
      return waiting.length > 0 && waiting.every((position, i) => position === i + 1);
    };
    await expect.poll(inOrder, { timeout: 10_000 }).toBe(true);
    const final = [];
    for (const id of ids) final.push(await client.waitUntilFinal(id));
    expect(final.map((s) => s.status)).toEqual(Array(6).fill('completed'));
  });

  it('retries a job whose render worker died mid-job, and it completes on the second attempt', async () => {
    const server = await start({ ...(await modeEnv(mode)), TEST_CRASH_ATTEMPTS: '1' });
    const client = await new Client(server.url).init();
    const jobId = await client.submit(await facePhoto());
    expect(await client.waitUntilFinal(jobId)).toEqual({
      status: 'completed',
      queue_position: 0,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });
    expect((await server.app.services.backend.jobs.get(jobId))?.attempts).toBe(2);
  });

  it('fails a job with a clear message after 3 attempts that all crashed', async () => {
    const server = await start({ ...(await modeEnv(mode)), TEST_CRASH_ATTEMPTS: '3' });
    const client = await new Client(server.url).init();
    const jobId = await client.submit(await facePhoto());
    expect(await client.waitUntilFinal(jobId)).toEqual(RENDER_FAILED);
    expect((await server.app.services.backend.jobs.get(jobId))?.attempts).toBe(3);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(404);
  });
});
