import { API_ERRORS, MESSAGES } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

/** Overload answers: they shed load instead of letting the process fall over. */
describe.each(MODES)('%s mode', (mode) => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({
      ...(await modeEnv(mode)),
      STREAM_LIMIT: '0',
      POLL_LIMIT: '3',
      QUEUE_LIMIT: '1',
      RATE_LIMIT_CONSENT: '4',
      RATE_LIMIT_UPLOAD: '3',
    });
    client = await new Client(server.url).init();
  });

  afterAll(async () => {
    await server.stop();
  });

  describe('load shedding', () => {
    let sessionId: string;
    let firstJob: string;

    beforeAll(async () => {
      sessionId = newSessionId();
      expect((await client.consent(sessionId)).status).toBe(201);
    });

    it('answers 503 with Retry-After when the queue is full', async () => {
      const photo = { bytes: await facePhoto() };
      const first = await client.upload({ user_session_id: sessionId }, photo);
      expect(first.status).toBe(202);
      firstJob = ((await first.json()) as { job_id: string }).job_id;
      // The first job occupies the only worker or waits; either way a second fills the one waiting place.
      const second = await client.upload({ user_session_id: sessionId }, photo);
      expect(second.status).toBe(202);
      const third = await client.upload({ user_session_id: sessionId }, photo);
      expect(third.status).toBe(503);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await third.json()) as unknown).toEqual({ error: API_ERRORS.queueFull.message, code: 'queueFull' });
    });

    it('answers 429 when a client sends more uploads than the rate limit', async () => {
      const response = await client.upload({ user_session_id: sessionId }, { bytes: await facePhoto() });
      expect(response.status).toBe(429);
      expect((await response.json()) as unknown).toEqual({
        error: API_ERRORS.rateLimited.message,
        code: 'rateLimited',
      });
      expect(response.headers.get('retry-after')).not.toBeNull();
    });

    it('answers 429 when a client records consents faster than the rate limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.consent(newSessionId())).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
    });

    it('answers polls over the per-second budget with 408 and Retry-After', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => fetch(`${server.url}/api/queue/position/${firstJob}`)),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses).toContain(200);
      expect(statuses).toContain(408);
      const overloaded = responses.find((r) => r.status === 408) as Response;
      expect(Number(overloaded.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await overloaded.json()) as unknown).toEqual({ error: MESSAGES.serverHeavyLoad, code: 'overloaded' });
    });

    it('sends one "error" message and closes a stream over the stream limit', async () => {
      const response = await fetch(`${server.url}/api/queue/stream/${firstJob}`);
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toBe(
        `data: ${JSON.stringify({ status: 'error', queue_position: 0, error_message: 'Server is under heavy load', error_code: null, eta_seconds: null })}\n\n`,
      );
    });

    it('keeps serving after all of it', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  });
});
