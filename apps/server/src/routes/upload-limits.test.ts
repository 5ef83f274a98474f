import { API_ERRORS } from '@selfie-mosaic/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

const QUEUE_LIMIT = 3;
const PARALLEL_UPLOADS = 24;

/**
 * QUEUE_LIMIT under a burst: every upload reads the queue while the others are still checking and
 * storing their photos, which is exactly when a read-then-act limit lets them all through.
 */
describe.each(MODES)('the queue limit under parallel uploads, %s mode', (mode) => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it(`accepts exactly ${QUEUE_LIMIT} of ${PARALLEL_UPLOADS} simultaneous uploads, refused photos holding no place`, async () => {
    server = await startTestServer({
      ...(await modeEnv(mode)),
      QUEUE_LIMIT: String(QUEUE_LIMIT),
      RATE_LIMIT_UPLOAD: '1000',
      RATE_LIMIT_CONSENT: '1000',
    });
    // No render takes a job out of the queue meanwhile, so every accepted upload stays waiting.
    await server.app.services.backend.queue.close();
    const client = await new Client(server.url).init();
    const sessionId = newSessionId();
    expect((await client.consent(sessionId)).status).toBe(201);
    const photo = await facePhoto();
    const fields = { user_session_id: sessionId, blacklabel: 'false' };

    // Refused photos take a place while they are checked and must give it back: more of them than the
    // limit, and none may leave the queue looking full.
    const refusals = await Promise.all(
      Array.from({ length: QUEUE_LIMIT + 2 }, () => client.upload(fields, { bytes: Buffer.from('not a photo') })),
    );
    expect(refusals.map((response) => response.status)).toEqual(Array(QUEUE_LIMIT + 2).fill(415));

    const responses = await Promise.all(
      Array.from({ length: PARALLEL_UPLOADS }, () => client.upload(fields, { bytes: photo })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(QUEUE_LIMIT);
    expect(statuses.filter((status) => status === 503)).toHaveLength(PARALLEL_UPLOADS - QUEUE_LIMIT);
    const refused = responses.find((response) => response.status === 503);
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    expect(await refused?.json()).toMatchObject({ error: API_ERRORS.queueFull.message });
    expect((await server.app.services.backend.queue.counts()).waiting).toBe(QUEUE_LIMIT);
  });
});
