import { API_ERRORS } from '@selfie-mosaic/contract';
import { afterAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;

afterAll(async () => {
  await server.stop();
});

it('is live at once but ready only when the render workers have loaded the models and warmed up', async () => {
  server = await startTestServer({ WARM_UP_RENDERS: '1' });
  // Loading the face models takes far longer than this first request.
  const first = await fetch(`${server.url}/readyz`);
  expect(first.status).toBe(503);
  expect(await first.json()).toEqual({ error: API_ERRORS.notReady.message, code: 'notReady' });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  const deadline = Date.now() + 60_000;
  let status = first.status;
  while (status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await fetch(`${server.url}/readyz`)).status;
  }
  expect(status).toBe(200);
});
