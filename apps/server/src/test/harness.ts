import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSessionId, MESSAGES, type QueueStatus, XSRF } from '@selfie-mosaic/contract';
import { inject } from 'vitest';
import type { BuildOptions } from '../app.js';
import { type StartedServer, startServer } from '../start.js';

export { freePort } from './services.js';

/** The two process models; API suites run once per mode. */
/** What a visitor's poll says of a job failed after every render attempt errored, crashed or hung. */
export const RENDER_FAILED: QueueStatus = {
  status: 'failed',
  queue_position: 0,
  error_message: MESSAGES.renderFailed,
  error_code: 'render_failed',
  eta_seconds: null,
};

export const MODES = ['embedded', 'scale'] as const;
export type Mode = (typeof MODES)[number];

/**
 * Settings selecting a mode. Scale: the run's Redis and PostgreSQL (src/test/global-setup.ts) with a
 * fresh database and queue name, so each server owns its data; pass the result again to "restart" it.
 */
export async function modeEnv(mode: Mode): Promise<Record<string, string>> {
  if (mode === 'embedded') return {};
  const { createDatabase } = await import('./services.js');
  return {
    REDIS_URL: inject('redisUrl'),
    DATABASE_URL: await createDatabase(inject('postgresUrl')),
    QUEUE_NAME: `test-${randomUUID()}`,
    // A killed worker's job comes back within seconds instead of the production 30 s.
    QUEUE_LOCK_TIMEOUT: '2',
  };
}

export interface TestServer extends StartedServer {
  dataDir: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Defaults for API tests: one worker thread (the machine is shared) without warm-up renders (each would
 * add a few seconds to every server start; `startup.test.ts` covers them), quiet logs, no web build.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: BuildOptions & { dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-api-'));
  const server = await startServer(
    {
      WORKERS: '1',
      WARM_UP_RENDERS: '0',
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...env,
      DATA_DIR: dataDir,
    },
    options,
  );
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function newSessionId(): string {
  return createSessionId();
}

/** A German visitor's consent to the terms, as the curious screen sends it. */
export function consentRequest(sessionId: string, overrides: Record<string, unknown> = {}) {
  return {
    country_iso: 'DE',
    language: 'de',
    question_answer: 'yes',
    consent_given: true,
    ip_address: null,
    user_session_id: sessionId,
    ...overrides,
  };
}

/** A browser-like client: keeps the XSRF cookie the server sets and echoes it on every POST. */
export class Client {
  private token = '';

  constructor(readonly baseUrl: string) {}

  /** Picks up the XSRF cookie, as the web app does when it loads. */
  async init(): Promise<this> {
    const response = await fetch(`${this.baseUrl}/healthz`);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`));
    if (!cookie) throw new Error('the server set no XSRF cookie');
    this.token = decodeURIComponent((cookie.split(';')[0] ?? '').slice(XSRF.cookie.length + 1));
    return this;
  }

  get xsrfHeaders(): Record<string, string> {
    return { cookie: `${XSRF.cookie}=${this.token}`, [XSRF.header]: this.token };
  }

  get(pathname: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${pathname}`, { headers: { cookie: `${XSRF.cookie}=${this.token}`, ...headers } });
  }

  postJson(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${pathname}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...this.xsrfHeaders, ...headers },
    });
  }

  async consent(sessionId: string, overrides: Record<string, unknown> = {}): Promise<Response> {
    return this.postJson('/api/consent', consentRequest(sessionId, overrides));
  }

  upload(fields: Record<string, string>, photo?: { bytes: Buffer; name?: string; type?: string }): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (photo) {
      form.set('photo', new Blob([photo.bytes], { type: photo.type ?? 'image/jpeg' }), photo.name ?? 'selfie.jpg');
    }
    return fetch(`${this.baseUrl}/api/upload`, { method: 'POST', body: form, headers: this.xsrfHeaders });
  }

  /** Consent plus upload of a photo for a fresh session; returns the job id. */
  async submit(photo: Buffer, options: { blacklabel?: boolean } = {}): Promise<string> {
    const sessionId = newSessionId();
    const consent = await this.consent(sessionId);
    if (consent.status !== 201) throw new Error(`consent answered ${consent.status}`);
    const response = await this.upload(
      { user_session_id: sessionId, blacklabel: String(options.blacklabel ?? false) },
      { bytes: photo },
    );
    const body = (await response.json()) as { job_id?: string; error?: string };
    if (response.status !== 202 || !body.job_id) throw new Error(`upload answered ${response.status}: ${body.error}`);
    return body.job_id;
  }

  async status(jobId: string): Promise<QueueStatus> {
    const response = await this.get(`/api/queue/position/${jobId}`);
    if (response.status !== 200) throw new Error(`poll answered ${response.status}`);
    return (await response.json()) as QueueStatus;
  }

  /** Polls until the job is final; the render can take seconds per job on a shared machine. */
  async waitUntilFinal(jobId: string, timeoutMs = 180_000): Promise<QueueStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.status(jobId);
      if (status.status === 'completed' || status.status === 'failed') return status;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
