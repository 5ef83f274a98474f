import { readdirSync, readFileSync } from 'node:fs';
import http, { request } from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import {
  ARTWORK,
  decodeLayingPlan,
  IN_POST,
  IN_STORY,
  LAYING_PLAN_MAX_BYTES,
  MESSAGES,
  type QueueStatus,
  RESULT_TTL_MS,
  STORY_ARTWORK,
} from '@selfie-mosaic/contract';
import Database from 'better-sqlite3';
import { EventSource } from 'eventsource';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS } from '../services/storage-names.js';
import { facelessPhoto, facePhoto, facePhotoWithExif } from '../test/fixtures.js';
import { Client, startTestServer, type TestServer } from '../test/harness.js';

const HOUR = 60 * 60 * 1000;
const ARTWORK_SIZE = { width: ARTWORK.width, height: ARTWORK.height };

let server: TestServer;
let client: Client;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer(
    { HEARTBEAT_INTERVAL: '0.2', LOG_LEVEL: 'debug' },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
  client = await new Client(server.url).init();
});

afterAll(async () => {
  await server.stop();
});

/** Follows a job with a real EventSource client until the server closes the stream. */
function followStream(jobId: string): Promise<QueueStatus[]> {
  return new Promise((resolve, reject) => {
    const messages: QueueStatus[] = [];
    const source = new EventSource(`${server.url}/api/queue/stream/${jobId}`);
    source.onmessage = (event) => {
      const message = JSON.parse(event.data) as QueueStatus;
      messages.push(message);
      if (message.status === 'completed' || message.status === 'failed' || message.status === 'error') {
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

/** The raw bytes of a stream, headers included, until the server ends it. */
function rawStream(jobId: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(`${server.url}/api/queue/stream/${jobId}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a job from upload to artwork', () => {
  let jobId: string;
  let messages: QueueStatus[];

  beforeAll(async () => {
    // One worker: the first job occupies it, so the second is seen waiting in the queue.
    const ahead = await client.submit(await facePhoto());
    jobId = await client.submit(await facePhotoWithExif(), { blacklabel: true });
    const [streamed] = await Promise.all([followStream(jobId), client.waitUntilFinal(ahead)]);
    messages = streamed;
  });

  it('is observed queued → processing → completed by an EventSource client', () => {
    const statuses = messages.map((m) => m.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual(['queued', 'processing', 'completed']);
    expect(messages[0]?.queue_position).toBeGreaterThanOrEqual(1);
    expect(messages.find((m) => m.status === 'processing')?.queue_position).toBe(0);
    expect(messages.at(-1)).toEqual({
      status: 'completed',
      queue_position: 0,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });
  });

  it('polls as completed with position 0', async () => {
    expect(await client.status(jobId)).toEqual({
      status: 'completed',
      queue_position: 0,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });
  });

  it(`gives a ${ARTWORK.width}×${ARTWORK.height} JPEG without EXIF at the result file path`, async () => {
    const response = await client.get(`/api/result/${jobId}`);
    expect(response.status).toBe(200);
    const result = (await response.json()) as Record<string, unknown>;
    expect(result).toMatchObject({ job_id: jobId, status: 'completed', ...ARTWORK_SIZE });
    const filePath = result.file_path as string;
    expect(path.posix.dirname(filePath)).toBe('/files');
    expect(RESULTS.keyOf(path.posix.basename(filePath))).toBeDefined();
    expect(Date.parse(result.expires_at as string) - Date.now()).toBeGreaterThan(RESULT_TTL_MS - HOUR);

    const file = await fetch(`${server.url}${result.file_path}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('content-disposition')).toBeNull();
    const jpeg = Buffer.from(await file.arrayBuffer());
    const metadata = await sharp(jpeg).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', ...ARTWORK_SIZE });
    expect(metadata.exif).toBeUndefined();
    expect(jpeg.includes(Buffer.from('TestCam'))).toBe(false);

    const download = await fetch(`${server.url}${result.file_path}?download=1`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="${DEFAULT_CAMPAIGN.brand.downloadFileName}"`,
    );
    await download.arrayBuffer();
  });

  it(`gives the ${STORY_ARTWORK.width}×${STORY_ARTWORK.height} story version at the story path, downloadable too`, async () => {
    const result = (await (await client.get(`/api/result/${jobId}`)).json()) as Record<string, unknown>;
    expect(result).toMatchObject({ story_width: STORY_ARTWORK.width, story_height: STORY_ARTWORK.height });
    const storyPath = result.story_path as string;
    expect(path.posix.dirname(storyPath)).toBe('/files');
    // Its own name beside the post's, under the same secret token.
    expect(storyPath).not.toBe(result.file_path);
    expect(RESULTS.keyOf(path.posix.basename(storyPath))).toBe(
      RESULTS.keyOf(path.posix.basename(result.file_path as string)),
    );

    const file = await fetch(`${server.url}${storyPath}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await file.arrayBuffer());
    expect(jpeg.byteLength).toBeLessThanOrEqual(STORY_ARTWORK.maxBytes);
    const metadata = await sharp(jpeg).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: STORY_ARTWORK.width, height: STORY_ARTWORK.height });
    expect(metadata.exif).toBeUndefined();

    const download = await fetch(`${server.url}${storyPath}?download=1`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="${DEFAULT_CAMPAIGN.brand.downloadFileName.replace(/\.jpg$/, '-story.jpg')}"`,
    );
    await download.arrayBuffer();
    // A story name with a token nobody holds is a plain 404, like any unknown artwork.
    const unknown = storyPath.replace(/\/files\/[0-9a-f]+/, `/files/${'0'.repeat(32)}`);
    expect((await fetch(`${server.url}${unknown}`)).status).toBe(404);
  });

  it('serves the laying plan of both pictures at the plan path, compressed, and inflated for a client without gzip', async () => {
    const result = (await (await client.get(`/api/result/${jobId}`)).json()) as Record<string, unknown>;
    const planPath = result.plan_path as string;
    expect(RESULTS.keyOf(path.posix.basename(planPath))).toBe(
      RESULTS.keyOf(path.posix.basename(result.file_path as string)),
    );

    const raw = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const url = new URL(`${server.url}${planPath}`);
        http
          .get(url, { headers: { 'accept-encoding': 'gzip, br' } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
            );
          })
          .on('error', reject);
      },
    );
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.body.byteLength).toBeLessThanOrEqual(LAYING_PLAN_MAX_BYTES);
    const plan = decodeLayingPlan(gunzipSync(raw.body));
    expect(plan.count).toBeGreaterThan(1000);
    expect([...plan.formats].some((f) => (f & IN_POST) !== 0)).toBe(true);
    expect([...plan.formats].some((f) => (f & IN_STORY) !== 0)).toBe(true);

    const plain = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(new URL(`${server.url}${planPath}`), { headers: { 'accept-encoding': 'identity' } }, (response) => {
          expect(response.headers['content-encoding']).toBeUndefined();
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });
    expect(decodeLayingPlan(plain).count).toBe(plan.count);
  });

  it('deletes the uploaded photo as soon as the job ends', () => {
    expect(readdirSync(path.join(server.dataDir, 'photos'))).toEqual([]);
  });

  it('answers a reconnect carrying Last-Event-ID for the finished job with 204', async () => {
    const reconnect = await rawStream(jobId, { 'last-event-id': '3' });
    expect(reconnect.status).toBe(204);
    const fresh = await rawStream(jobId);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toContain('"status":"completed"');
  });

  it('stores no IP address and logs none', () => {
    const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
    const columns = db
      .prepare<[], { name: string }>(
        `SELECT p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`,
      )
      .all()
      .map((c) => c.name);
    expect(columns.length).toBeGreaterThan(10);
    expect(columns.filter((name) => /ip|addr/i.test(name))).toEqual([]);
    expect((db.prepare('SELECT COUNT(*) AS n FROM consents').get() as { n: number }).n).toBeGreaterThan(0);
    db.close();
    const raw = readFileSync(path.join(server.dataDir, 'selfie-mosaic.sqlite'));
    expect(raw.includes(Buffer.from('127.0.0.1'))).toBe(false);
    // The server's own listening address is logged once; no client address may be.
    const logs = logLines.filter((line) => !line.includes('Server listening at')).join('');
    expect(logs).toContain('/api/upload');
    expect(logs).not.toContain('127.0.0.1');
    expect(logs).not.toMatch(/remoteAddress|remotePort/);
  });

  it('expires the artwork and the job after the retention time, keeping the consents', async () => {
    const { file_path: filePath, story_path: storyPath } = (await (
      await client.get(`/api/result/${jobId}`)
    ).json()) as {
      file_path: string;
      story_path: string;
    };
    const removed = await server.app.services.sweep(Date.now() + RESULT_TTL_MS + HOUR);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${server.url}${filePath}`)).status).toBe(404);
    expect((await fetch(`${server.url}${storyPath}`)).status).toBe(404);
    expect((await fetch(`${server.url}${storyPath.replace(/\.story\.jpg$/, '.plan')}`)).status).toBe(404);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(404);
    expect((await client.get(`/api/queue/position/${jobId}`)).status).toBe(404);
    expect(readdirSync(path.join(server.dataDir, 'results'))).toEqual([]);
    const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM consents').get() as { n: number }).n).toBeGreaterThan(0);
    db.close();
  });
});

describe('a photo the engine refuses', () => {
  it('fails the job with the refusal message and code, on the stream and by polling', async () => {
    const jobId = await client.submit(await facelessPhoto());
    const messages = await followStream(jobId);
    const last = messages.at(-1);
    expect(last).toEqual({
      status: 'failed',
      queue_position: 0,
      error_message: MESSAGES.noFace,
      error_code: 'no_face',
      eta_seconds: null,
    });
    expect(await client.status(jobId)).toEqual(last);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(404);
  });
});

describe('the event stream', () => {
  it('counts a waiting job down the queue: position 2, then 1, then processing', async () => {
    const photo = await facePhoto();
    const first = await client.submit(photo);
    await client.submit(photo);
    const third = await client.submit(photo);
    const messages = await followStream(third);
    await client.waitUntilFinal(first);
    const positions = messages.filter((m) => m.status === 'queued').map((m) => m.queue_position);
    expect(positions.slice(-2)).toEqual([2, 1]);
    expect(messages.map((m) => m.status).slice(-2)).toEqual(['processing', 'completed']);
  });

  it('is unbuffered, sends `: ping` heartbeats and closes after the final status', async () => {
    const ahead = await client.submit(await facePhoto());
    const jobId = await client.submit(await facePhoto());
    const stream = await rawStream(jobId);
    await client.waitUntilFinal(ahead);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.body).toContain(': ping\n\n');
    const data = stream.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as QueueStatus);
    expect(data.at(-1)?.status).toBe('completed');
    expect(stream.body).toMatch(/^id: \d+$/m);
  });
});
