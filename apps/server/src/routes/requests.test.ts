import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { API_ERRORS, type ApiErrorCode, XSRF } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facePhoto, hundredMegapixelPng, SVG, TEXT_AS_JPEG, truncatedJpeg, twelveMegabytes } from '../test/fixtures.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

/** Every request/answer row of the API table (docs/architecture.md#api) that does not need a finished render. */
describe.each(MODES)('API requests, %s mode', (mode) => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ ...(await modeEnv(mode)), RATE_LIMIT_CONSENT: '1000', RATE_LIMIT_UPLOAD: '1000' });
    client = await new Client(server.url).init();
  });

  afterAll(async () => {
    await server.stop();
  });

  /** Every error answer is `{ error, code }`, with the catalogue status of its code; returns `error`. */
  async function errorOf(response: Response, code: ApiErrorCode): Promise<string> {
    const body = (await response.json()) as { error?: unknown; code?: unknown };
    expect(body).toEqual({ error: expect.any(String), code });
    expect(response.status).toBe(API_ERRORS[code].status);
    return body.error as string;
  }

  async function stillServing(): Promise<void> {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
  }

  describe('XSRF double-submit cookie', () => {
    it('sets a readable XSRF-TOKEN cookie on a response to a client without one', async () => {
      const response = await fetch(`${server.url}/api/queue/position/00000000-0000-4000-8000-000000000000`);
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`));
      expect(cookie).toBeDefined();
      expect(cookie).not.toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Path=\//);
    });

    it('refuses a POST without the X-XSRF-TOKEN header with 403', async () => {
      const response = await fetch(`${server.url}/api/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: client.xsrfHeaders.cookie as string },
        body: JSON.stringify({ country_iso: 'de', language: 'de', question_answer: 'yes', consent_given: true }),
      });
      expect(response.status).toBe(403);
      expect(await errorOf(response, 'xsrf')).toBe(API_ERRORS.xsrf.message);
    });

    it('refuses a header that does not match the cookie, and a header without any cookie', async () => {
      const wrong = await fetch(`${server.url}/api/analytics/pageview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `${XSRF.cookie}=abc`, [XSRF.header]: 'abd' },
        body: '{}',
      });
      expect(wrong.status).toBe(403);
      const noCookie = await fetch(`${server.url}/api/analytics/pageview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [XSRF.header]: 'abc' },
        body: '{}',
      });
      expect(noCookie.status).toBe(403);
      await errorOf(wrong, 'xsrf');
      await errorOf(noCookie, 'xsrf');
    });

    it('refuses an upload without the header before reading it', async () => {
      const form = new FormData();
      form.set('user_session_id', newSessionId());
      const response = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form });
      expect(response.status).toBe(403);
      await errorOf(response, 'xsrf');
    });
  });

  describe('POST /api/consent', () => {
    it('records a consent and answers 201 with its id and time', async () => {
      const response = await client.consent(newSessionId());
      expect(response.status).toBe(201);
      const body = (await response.json()) as { consent_id: string; created_at: string };
      expect(body.consent_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Math.abs(Date.parse(body.created_at) - Date.now())).toBeLessThan(60_000);
    });

    it('accepts a consent without a session id and an upper-case country', async () => {
      const response = await client.postJson('/api/consent', {
        country_iso: 'LV',
        language: 'lv',
        question_answer: 'no',
        consent_given: false,
        ip_address: null,
      });
      expect(response.status).toBe(201);
    });

    it.each([
      ['country_iso', { country_iso: 'xx' }, /country_iso/],
      ['language', { language: 'klingon' }, /language/],
      ['question_answer', { question_answer: 'maybe' }, /question_answer/],
      ['consent_given', { consent_given: 'yes' }, /consent_given/],
      ['ip_address', { ip_address: '203.0.113.7' }, /ip_address/],
      ['user_session_id', { user_session_id: 'not-a-session' }, /user_session_id/],
    ])('answers 400 naming the field for a bad %s', async (_field, override, pattern) => {
      const response = await client.consent(newSessionId(), override);
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'invalidField')).toMatch(pattern);
    });

    it('answers 400 naming a missing field', async () => {
      const response = await client.postJson('/api/consent', {
        country_iso: 'de',
        language: 'de',
        consent_given: true,
      });
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'invalidField')).toMatch(/question_answer/);
    });

    it('answers 400 to invalid JSON and 413 to oversized JSON', async () => {
      const invalid = await client.postJson('/api/consent', '{"country_iso": "de",');
      expect(invalid.status).toBe(400);
      expect(await errorOf(invalid, 'invalidJson')).toBe(API_ERRORS.invalidJson.message);
      const oversized = await client.postJson('/api/consent', { country_iso: 'de', padding: 'x'.repeat(100_000) });
      expect(oversized.status).toBe(413);
      expect(await errorOf(oversized, 'bodyTooLarge')).toBe(API_ERRORS.bodyTooLarge.message);
      await stillServing();
    });

    it('answers 400 when the body is not an object', async () => {
      const response = await client.postJson('/api/consent', '[1, 2, 3]');
      expect(response.status).toBe(400);
      await errorOf(response, 'invalidField');
    });
  });

  describe('POST /api/upload', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = newSessionId();
      expect((await client.consent(sessionId)).status).toBe(201);
    });

    it('accepts a photo: 202 with the job id, status queued and a queue position', async () => {
      const response = await client.upload(
        { user_session_id: sessionId, blacklabel: 'true' },
        { bytes: await facePhoto() },
      );
      expect(response.status).toBe(202);
      const body = (await response.json()) as { job_id: string; status: string; queue_position: number };
      expect(body.job_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.status).toBe('queued');
      expect(body.queue_position).toBeGreaterThanOrEqual(1);
    });

    it('refuses a session without a recorded consent with 403', async () => {
      const response = await client.upload({ user_session_id: newSessionId() }, { bytes: await facePhoto() });
      expect(response.status).toBe(403);
      expect(await errorOf(response, 'noConsent')).toBe(API_ERRORS.noConsent.message);
    });

    it('refuses a session whose visitor answered no with 403', async () => {
      const declined = newSessionId();
      await client.consent(declined, { question_answer: 'no' });
      const response = await client.upload({ user_session_id: declined }, { bytes: await facePhoto() });
      expect(response.status).toBe(403);
    });

    it('answers 400 when the photo is missing', async () => {
      const response = await client.upload({ user_session_id: sessionId });
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'invalidField')).toMatch(/photo/);
    });

    it('answers 400 when the session id is missing or malformed', async () => {
      const missing = await client.upload({}, { bytes: await facePhoto() });
      expect(missing.status).toBe(400);
      expect(await errorOf(missing, 'invalidField')).toMatch(/user_session_id.*required/);
      const malformed = await client.upload({ user_session_id: 'session-abc-!!' }, { bytes: await facePhoto() });
      expect(malformed.status).toBe(400);
      expect(await errorOf(malformed, 'invalidField')).toMatch(/user_session_id/);
    });

    it('answers 400 when blacklabel is not true or false', async () => {
      const response = await client.upload(
        { user_session_id: sessionId, blacklabel: 'maybe' },
        { bytes: await facePhoto() },
      );
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'invalidField')).toMatch(/blacklabel/);
    });

    it('answers 400 to an empty file', async () => {
      const response = await client.upload({ user_session_id: sessionId }, { bytes: Buffer.alloc(0) });
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'emptyPhoto')).toBe(API_ERRORS.emptyPhoto.message);
    });

    it('answers 415 to a text file named .jpg, sent as image/jpeg', async () => {
      const response = await client.upload(
        { user_session_id: sessionId },
        { bytes: TEXT_AS_JPEG, name: 'selfie.jpg', type: 'image/jpeg' },
      );
      expect(response.status).toBe(415);
      expect(await errorOf(response, 'unsupportedMedia')).toBe(API_ERRORS.unsupportedMedia.message);
    });

    it('answers 415 to an SVG', async () => {
      const response = await client.upload(
        { user_session_id: sessionId },
        { bytes: SVG, name: 'face.svg', type: 'image/svg+xml' },
      );
      expect(response.status).toBe(415);
      expect(await errorOf(response, 'unsupportedMedia')).toBe(API_ERRORS.unsupportedMedia.message);
    });

    it('answers 400 to a truncated JPEG with a clear message', async () => {
      const response = await client.upload({ user_session_id: sessionId }, { bytes: await truncatedJpeg() });
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'truncatedPhoto')).toBe(API_ERRORS.truncatedPhoto.message);
    });

    it('answers 413 to a 12 MB file', async () => {
      const response = await client.upload({ user_session_id: sessionId }, { bytes: twelveMegabytes() });
      expect(response.status).toBe(413);
      expect(await errorOf(response, 'tooLarge')).toBe(API_ERRORS.tooLarge.message);
      await stillServing();
    });

    it('answers 413 to a 100-megapixel PNG without decoding it', async () => {
      const png = await hundredMegapixelPng();
      expect(png.length).toBeLessThan(2 * 1024 * 1024);
      const response = await client.upload(
        { user_session_id: sessionId },
        { bytes: png, name: 'huge.png', type: 'image/png' },
      );
      expect(response.status).toBe(413);
      expect(await errorOf(response, 'tooLarge')).toBe(API_ERRORS.tooLarge.message);
      await stillServing();
    });

    it('answers 415 to a JSON body instead of a form', async () => {
      const response = await client.postJson('/api/upload', { user_session_id: sessionId });
      expect(response.status).toBe(415);
      await errorOf(response, 'unsupportedMedia');
    });
  });

  describe('job lookups', () => {
    const unknown = '0b7e4a5c-1d2f-4e3a-9b8c-7d6e5f4a3b2c';

    it.each([
      ['/api/queue/position/', 'jobNotFound'],
      ['/api/queue/stream/', 'jobNotFound'],
      ['/api/result/', 'resultNotFound'],
    ] as const)('%s answers 404 %s for an unknown job', async (prefix, code) => {
      const response = await client.get(`${prefix}${unknown}`);
      expect(response.status).toBe(404);
      expect(await errorOf(response, code)).toBe(API_ERRORS[code].message);
    });

    it.each([
      '/api/queue/position/not-a-job',
      '/api/queue/position/..%2F..%2Fselfie-mosaic.sqlite',
      '/api/result/..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/result/../../etc/passwd',
      '/api/queue/stream/%2e%2e%2fphotos',
      '/files/..%2Fselfie-mosaic.sqlite',
      '/files/../selfie-mosaic.sqlite',
      '/files/00000000000000000000000000000000.jpg',
    ])('answers a JSON 404 to the malformed or path-traversal id %s', async (pathname) => {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status).toBe(404);
      // A path that cannot be a job id is an unknown job; one outside the API is an unknown path.
      const { code } = (await response.clone().json()) as { code: ApiErrorCode };
      expect(['jobNotFound', 'resultNotFound', 'notFound']).toContain(code);
      await errorOf(response, code);
    });

    it('answers a JSON 404 to unknown API paths', async () => {
      const response = await client.get('/api/nothing-here');
      expect(response.status).toBe(404);
      expect(await errorOf(response, 'notFound')).toBe(API_ERRORS.notFound.message);
    });
  });

  describe('POST /api/analytics/pageview', () => {
    it('counts a page view with 204', async () => {
      const response = await client.postJson('/api/analytics/pageview', {
        country_iso: 'de',
        language: 'de',
        page_path: '/de/de/start',
        ip_address: null,
        user_agent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1',
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    });

    it('answers 400 to an invalid page view', async () => {
      const response = await client.postJson('/api/analytics/pageview', {
        country_iso: 'de',
        language: 'de',
        page_path: 'no-leading-slash',
        ip_address: null,
        user_agent: null,
      });
      expect(response.status).toBe(400);
      expect(await errorOf(response, 'invalidField')).toMatch(/page_path/);
    });
  });

  describe('operations endpoints', () => {
    it('answers /healthz, and /readyz once the render workers are warm', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const deadline = Date.now() + 60_000;
      let ready = await fetch(`${server.url}/readyz`);
      while (ready.status === 503 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await fetch(`${server.url}/readyz`);
      }
      expect(ready.status).toBe(200);
    });

    it('exposes Prometheus metrics for the queue, jobs, renders, streams and HTTP', async () => {
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      for (const name of [
        'selfie_mosaic_queue_depth',
        'selfie_mosaic_jobs{status="queued"}',
        'selfie_mosaic_render_seconds',
        'selfie_mosaic_open_streams',
        'selfie_mosaic_http_request_seconds_bucket',
      ]) {
        expect(text).toContain(name);
      }
    });

    it('publishes an OpenAPI document with every API route and the multipart upload', async () => {
      const response = await fetch(`${server.url}/api/docs/json`);
      expect(response.status).toBe(200);
      const doc = (await response.json()) as {
        openapi: string;
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
      };
      expect(doc.openapi).toMatch(/^3\./);
      for (const path of [
        '/api/consent',
        '/api/upload',
        '/api/queue/stream/{jobId}',
        '/api/queue/position/{jobId}',
        '/api/result/{jobId}',
        '/api/analytics/pageview',
        '/api/handoff',
        '/api/handoff/claim',
        '/api/handoff/{handoffId}',
        '/api/handoff/{handoffId}/state',
        '/api/handoff/{handoffId}/stream',
      ]) {
        expect(doc.paths).toHaveProperty([path]);
      }
      // The phone's claim names its one refusal for every used, expired or forged code.
      expect(JSON.stringify(doc.paths['/api/handoff/claim']?.post)).toContain('"handoffInvalid"');
      expect(doc.paths['/api/upload']?.post?.requestBody?.content).toHaveProperty(['multipart/form-data']);
      expect(JSON.stringify(doc.paths['/api/consent'])).toContain('question_answer');
      // Clients see the error codes they must handle, straight from the catalogue.
      const refusal = JSON.stringify(doc.paths['/api/upload']?.post);
      for (const code of ['noConsent', 'unsupportedMedia', 'tooLarge', 'queueFull', 'truncatedPhoto']) {
        expect(refusal).toContain(`"${code}"`);
      }
    });

    it('sends security headers with a CSP that allows camera streams, blob images and our own WASM', async () => {
      const response = await fetch(`${server.url}/healthz`);
      const csp = response.headers.get('content-security-policy') ?? '';
      // The face guide compiles WebAssembly from our own files; JavaScript's eval stays off.
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).toMatch(/img-src[^;]*blob:/);
      expect(csp).toMatch(/media-src[^;]*mediastream:/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });

  describe('a failure on our side', () => {
    it('answers 500 with the catalogue message, never the cause, and keeps serving', async () => {
      const sessionId = newSessionId();
      await client.consent(sessionId);
      const photos = path.join(server.dataDir, 'photos');
      rmSync(photos, { recursive: true, force: true });
      try {
        const response = await client.upload({ user_session_id: sessionId }, { bytes: await facePhoto() });
        expect(response.status).toBe(500);
        const body = await response.text();
        expect(JSON.parse(body)).toEqual({ error: API_ERRORS.internal.message, code: 'internal' });
        expect(body).not.toMatch(/ENOENT|photos|data|stack/i);
      } finally {
        mkdirSync(photos, { recursive: true });
      }
      await stillServing();
    });
  });
});
