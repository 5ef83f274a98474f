import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HandoffClaimResponse, HandoffCreateResponse, HandoffStatus } from '@selfie-mosaic/contract';
import { afterAll, expect, inject, it } from 'vitest';
import { Cluster } from '../../test/cluster.js';
import { openEventStream } from '../../test/event-stream.js';
import { facePhoto } from '../../test/fixtures.js';
import { Client, newSessionId } from '../../test/harness.js';
import { createDatabase } from '../../test/services.js';

/**
 * Scale mode: the desktop and the phone reach different API processes (the balancer spreads them), so
 * the phone's claim, progress and photo, handled by one process, must reach the desktop's stream held by
 * the other, through Redis.
 */

let cluster: Cluster | undefined;
let storageDir = '';

afterAll(async () => {
  await cluster?.stopAll();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

it('follows on one API process a hand-off the phone continues through another', async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-handoff-'));
  const run = new Cluster({
    REDIS_URL: inject('redisUrl'),
    DATABASE_URL: await createDatabase(inject('postgresUrl')),
    QUEUE_NAME: `handoff-${randomUUID()}`,
    STORAGE_DIR: storageDir,
    DATA_DIR: storageDir,
    WEB_DIST: path.join(storageDir, 'no-web-build'),
  });
  cluster = run;
  const [desktopApi, phoneApi] = await Promise.all([
    run.spawn('api A', { ROLE: 'api' }),
    run.spawn('api B', { ROLE: 'api' }),
  ]);
  const desktop = await new Client(desktopApi.url).init();
  const phone = await new Client(phoneApi.url).init();

  const sessionId = newSessionId();
  expect((await desktop.consent(sessionId)).status).toBe(201);
  const created = (await (
    await desktop.postJson('/api/handoff', { user_session_id: sessionId })
  ).json()) as HandoffCreateResponse;
  const stream = await openEventStream(`${desktopApi.url}/api/handoff/${created.handoff_id}/stream`);
  await stream.until(1);

  const claimed = await phone.postJson('/api/handoff/claim', { token: created.token });
  expect(claimed.status).toBe(200);
  const { user_session_id: continued } = (await claimed.json()) as HandoffClaimResponse;
  expect(continued).toBe(sessionId);
  await stream.until(2);
  const state = { user_session_id: continued, state: 'uploading' };
  expect((await phone.postJson(`/api/handoff/${created.handoff_id}/state`, state)).status).toBe(204);
  await stream.until(3);
  const upload = await phone.upload(
    { user_session_id: continued, handoff_id: created.handoff_id },
    { bytes: await facePhoto() },
  );
  expect(upload.status).toBe(202);
  const { job_id: jobId } = (await upload.json()) as { job_id: string };
  await stream.ended;

  expect(stream.messages.map((message) => (message.data as HandoffStatus).state)).toEqual([
    'waiting',
    'connected',
    'uploading',
    'submitted',
  ]);
  expect(stream.messages.at(-1)?.data).toMatchObject({ job_id: jobId });
  // The desktop's own process reads the same from the shared database.
  const polled = (await (await desktop.get(`/api/handoff/${created.handoff_id}`)).json()) as HandoffStatus;
  expect(polled).toMatchObject({ state: 'submitted', job_id: jobId });
  expect(run.exitedByThemselves()).toEqual([]);
}, 180_000);
