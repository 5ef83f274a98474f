import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createResultToken } from '@selfie-mosaic/contract';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, freePort, newSessionId } from '../test/harness.js';
import { spawnServer, waitForReady } from '../test/server-process.js';
import { RESULT_FILES, RESULTS, resultFileName } from './storage-names.js';

const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-upload-kill-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Killed rounds need generous limits: every visitor comes from 127.0.0.1. */
const SERVER_ENV = {
  RATE_LIMIT_UPLOAD: '10000',
  RATE_LIMIT_CONSENT: '10000',
  // The job rendering at each kill is delivered again; three kills must not use up its attempts
  // (a job whose process dies MAX_ATTEMPTS times is failed on purpose, as the suspected cause).
  MAX_ATTEMPTS: '10',
};

/** Uploads from `visitors` parallel visitors until the server dies; returns the ids it accepted (202). */
async function uploadUntilKilled(url: string, visitors: number, killAfter: number, kill: () => void) {
  const photo = await facePhoto();
  const accepted: string[] = [];
  let dead = false;
  const visitor = async () => {
    const client = await new Client(url).init();
    const sessionId = newSessionId();
    if ((await client.consent(sessionId)).status !== 201) throw new Error('consent refused');
    while (!dead) {
      try {
        const response = await client.upload({ user_session_id: sessionId }, { bytes: photo });
        if (response.status !== 202) throw new Error(`upload answered ${response.status}`);
        accepted.push(((await response.json()) as { job_id: string }).job_id);
        if (accepted.length === killAfter) {
          dead = true;
          kill();
        }
      } catch (error) {
        if (!dead) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: visitors }, visitor));
  return accepted;
}

it('leaves no photo without a job after SIGKILLs during concurrent uploads, and loses no accepted job', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const accepted: string[] = [];
  // Three kills, each while eight visitors are mid-upload (bodies in flight, photos being written).
  for (const killAfter of [5, 9, 13]) {
    const running = spawnServer(dir, port, SERVER_ENV);
    child = running;
    await waitForReady(url, 120_000);
    const exited = new Promise((resolve) => running.once('exit', resolve));
    accepted.push(...(await uploadUntilKilled(url, 8, killAfter, () => running.kill('SIGKILL'))));
    await exited;
  }

  // Whether or not a kill landed between a file and its record, plant exactly what one leaves: a whole
  // photo and artwork without a record, and a write cut short.
  writeFileSync(path.join(dir, 'photos', randomUUID()), await facePhoto());
  writeFileSync(path.join(dir, 'results', RESULTS.nameOf(createResultToken())), await facePhoto());
  writeFileSync(path.join(dir, 'tmp', randomBytes(16).toString('hex')), (await facePhoto()).subarray(0, 1000));

  child = spawnServer(dir, port, SERVER_ENV);
  await waitForReady(url, 120_000);
  const client = await new Client(url).init();
  for (const id of accepted) expect((await client.waitUntilFinal(id, 600_000)).status).toBe('completed');

  // Jobs a kill interrupted before their answer are stored too: wait for every job to end.
  const db = new Database(path.join(dir, 'selfie-mosaic.sqlite'), { readonly: true });
  try {
    const active = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed')");
    const deadline = Date.now() + 600_000;
    while ((active.get() as { n: number }).n > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(active.get()).toEqual({ n: 0 });
    const tokens = db.prepare<[], { result_token: string }>(
      'SELECT result_token FROM jobs WHERE result_token IS NOT NULL',
    );
    // Every artwork (its post and story files) belongs to a job, no photo outlived its job, no partial write remains.
    expect(readdirSync(path.join(dir, 'results')).sort()).toEqual(
      tokens
        .all()
        .flatMap((row) => RESULT_FILES.map((file) => resultFileName(row.result_token, file)))
        .sort(),
    );
    expect(readdirSync(path.join(dir, 'photos'))).toEqual([]);
    expect(readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  } finally {
    db.close();
  }
}, 900_000);
