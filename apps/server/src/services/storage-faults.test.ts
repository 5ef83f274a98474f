import { readdirSync } from 'node:fs';
import path from 'node:path';
import { API_ERRORS } from '@selfie-mosaic/contract';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, newSessionId, startTestServer, type TestServer } from '../test/harness.js';
import { mountTinyDisk, type TinyDisk } from '../test/tiny-disk.js';
import { DiskStorage } from './embedded/disk-storage.js';
import { RESULT_FILES, resultFileName } from './storage-names.js';

/**
 * Real faults under a running server: a tmpfs of a few megabytes that the test fills (ENOSPC from the
 * kernel, SQLITE_FULL from SQLite), and a database locked by another process.
 */

let disk: TinyDisk | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  // Removes the server's data dir (on the tiny disk, or a temp dir for the lock test).
  await server?.stop();
  server = undefined;
  disk?.unmount();
  disk = undefined;
});

function mount(skip: (condition: boolean, note?: string) => void, megabytes: number): TinyDisk {
  const mounted = mountTinyDisk(megabytes);
  skip('reason' in mounted, 'reason' in mounted ? mounted.reason : undefined);
  disk = mounted as TinyDisk;
  return disk;
}

function files(dir: string, folder: string): string[] {
  return readdirSync(path.join(dir, folder));
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const readyz = async (url: string) => (await fetch(`${url}/readyz`)).status;

/** Once the server is ready: a visitor whose consent is recorded, with a selfie to upload. */
async function consentedVisitor(url: string) {
  await waitFor('ready', async () => (await readyz(url)) === 200);
  const client = await new Client(url).init();
  const sessionId = newSessionId();
  expect((await client.consent(sessionId)).status).toBe(201);
  return { client, sessionId, photo: await facePhoto() };
}

it('leaves no partial photo or artwork when the disk fills during the write', async ({ skip }) => {
  const tiny = mount(skip, 2);
  const storage = new DiskStorage(tiny.dir);
  await storage.init();
  const big = Buffer.alloc(3 * 1024 * 1024, 7);
  await expect(storage.savePhoto('0b7a4c8e-4f7e-4a53-9d55-0f2a34c1e7a1', big)).rejects.toMatchObject({
    code: 'ENOSPC',
  });
  await expect(storage.saveResult(big)).rejects.toMatchObject({ code: 'ENOSPC' });
  expect([files(tiny.dir, 'photos'), files(tiny.dir, 'results'), files(tiny.dir, 'tmp')]).toEqual([[], [], []]);
  // The health probe fails the same way while the disk is full, and passes once space returns.
  tiny.fill();
  await expect(storage.probe()).rejects.toMatchObject({ code: 'ENOSPC' });
  tiny.free();
  await storage.probe();
  expect(files(tiny.dir, 'tmp')).toEqual([]);
});

it('answers uploads 507 while the disk is full, is not ready, and resumes by itself when space returns', async ({
  skip,
}) => {
  const tiny = mount(skip, 32);
  server = await startTestServer({}, { dataDir: path.join(tiny.dir, 'data') });
  const { url, dataDir } = server;
  const { client, sessionId, photo } = await consentedVisitor(url);
  const upload = () => client.upload({ user_session_id: sessionId }, { bytes: photo });

  // Room for half the photo: the write starts, then the kernel refuses the rest.
  tiny.fill(Math.floor(photo.length / 2));
  const refused = await upload();
  expect(refused.status).toBe(507);
  expect(await refused.json()).toMatchObject({ error: API_ERRORS.storageFull.message });
  expect(await readyz(url)).toBe(503);
  expect(await (await fetch(`${url}/metrics`)).text()).toContain('selfie_mosaic_storage_writable 0');
  // Refused at once while storage is full; nothing written, no partial file left.
  expect((await upload()).status).toBe(507);
  expect([files(dataDir, 'photos'), files(dataDir, 'tmp')]).toEqual([[], []]);
  const db = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  expect(db.prepare('SELECT id FROM jobs').all()).toEqual([]);
  db.close();

  tiny.free();
  await waitFor('ready again', async () => (await readyz(url)) === 200);
  const accepted = await upload();
  expect(accepted.status).toBe(202);
  const { job_id: jobId } = (await accepted.json()) as { job_id: string };
  expect((await client.waitUntilFinal(jobId)).status).toBe('completed');
  expect(files(dataDir, 'photos')).toEqual([]);
}, 300_000);

it('keeps running when the disk fills during renders, and completes every job once space returns', async ({ skip }) => {
  const tiny = mount(skip, 32);
  server = await startTestServer({ RATE_LIMIT_UPLOAD: '100' }, { dataDir: path.join(tiny.dir, 'data') });
  const { url, dataDir } = server;
  await waitFor('ready', async () => (await readyz(url)) === 200);
  const client = await new Client(url).init();
  const photo = await facePhoto();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push(await client.submit(photo));

  // One worker renders them one by one: the later ones can neither save their artwork nor their status.
  tiny.fill();
  await waitFor('not ready while writes fail', async () => (await readyz(url)) === 503);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);

  tiny.free();
  await waitFor('ready again', async () => (await readyz(url)) === 200);
  const final = [];
  for (const id of ids) final.push(await client.waitUntilFinal(id));
  expect(final.map((status) => status.status)).toEqual(['completed', 'completed', 'completed', 'completed']);

  // Nothing half-written or unowned: one artwork (its post and story files) per job, no photo, no partial file.
  const db = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  const tokens = db.prepare<[], { result_token: string }>('SELECT result_token FROM jobs').all();
  db.close();
  const names = tokens.flatMap((row) => RESULT_FILES.map((file) => resultFileName(row.result_token, file)));
  expect(files(dataDir, 'results').sort()).toEqual(names.sort());
  expect([files(dataDir, 'photos'), files(dataDir, 'tmp')]).toEqual([[], []]);
}, 600_000);

it('answers 503 while another process holds the database locked, and resumes when it lets go', async () => {
  server = await startTestServer();
  const { url, dataDir } = server;
  const { client, sessionId, photo } = await consentedVisitor(url);

  // A real lock from another connection: the server's writes wait their busy timeout (5 s), then fail.
  const locker = new Database(path.join(dataDir, 'selfie-mosaic.sqlite'));
  try {
    locker.exec('BEGIN EXCLUSIVE');
    const refused = await client.upload({ user_session_id: sessionId }, { bytes: photo });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: API_ERRORS.notReady.message });
    expect(await readyz(url)).toBe(503);
    expect(files(dataDir, 'photos')).toEqual([]);
    locker.exec('ROLLBACK');
  } finally {
    locker.close();
  }
  await waitFor('ready again', async () => (await readyz(url)) === 200);
  const accepted = await client.upload({ user_session_id: sessionId }, { bytes: photo });
  expect(accepted.status).toBe(202);
}, 300_000);
