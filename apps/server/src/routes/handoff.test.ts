import { randomUUID } from 'node:crypto';
import {
  API_ERRORS,
  type ApiErrorCode,
  groupHandoffToken,
  HANDOFF,
  type HandoffClaimResponse,
  type HandoffCreateResponse,
  type HandoffStatus,
} from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream.js';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

/** `{ error, code }` with the catalogue status of its code; returns the body. */
async function errorOf(response: Response, code: ApiErrorCode): Promise<{ error: string; code: string }> {
  const body = (await response.json()) as { error: string; code: string };
  expect(body).toEqual({ error: expect.any(String), code });
  expect(response.status).toBe(API_ERRORS[code].status);
  return body;
}

/** A desktop that recorded consent and asked for a code. */
async function desktopWithCode(client: Client, body: Record<string, unknown> = {}) {
  const sessionId = newSessionId();
  expect((await client.consent(sessionId)).status).toBe(201);
  const response = await client.postJson('/api/handoff', { user_session_id: sessionId, ...body });
  expect(response.status).toBe(201);
  return { sessionId, ...((await response.json()) as HandoffCreateResponse) };
}

const claim = (client: Client, token: string) => client.postJson('/api/handoff/claim', { token });

async function poll(client: Client, handoffId: string): Promise<HandoffStatus> {
  const response = await client.get(`/api/handoff/${handoffId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as HandoffStatus;
}

describe.each(MODES)('desktop → phone hand-off, %s mode', (mode) => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({
      ...(await modeEnv(mode)),
      RATE_LIMIT_CONSENT: '1000',
      RATE_LIMIT_UPLOAD: '1000',
      RATE_LIMIT_HANDOFF: '1000',
    });
    client = await new Client(server.url).init();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives a code only to a session that recorded consent', async () => {
    const response = await client.postJson('/api/handoff', { user_session_id: newSessionId() });
    await errorOf(response, 'noConsent');
    const declined = newSessionId();
    await client.consent(declined, { question_answer: 'no', consent_given: false });
    await errorOf(await client.postJson('/api/handoff', { user_session_id: declined }), 'noConsent');
  });

  it('lets one phone claim a code: it continues the same session in the same market and language', async () => {
    const before = Date.now();
    const desktop = await desktopWithCode(client);
    expect(Date.parse(desktop.expires_at)).toBeGreaterThanOrEqual(before + HANDOFF.claimMs);
    expect(await poll(client, desktop.handoff_id)).toEqual({
      state: 'waiting',
      job_id: null,
      expires_at: desktop.expires_at,
    });

    // Typed on the phone: lower case, in groups.
    const response = await claim(client, groupHandoffToken(desktop.token).toLowerCase());
    expect(response.status).toBe(200);
    expect((await response.json()) as HandoffClaimResponse).toEqual({
      handoff_id: desktop.handoff_id,
      user_session_id: desktop.sessionId,
      country_iso: 'de',
      language: 'de',
      job_id: null,
    });
    const connected = await poll(client, desktop.handoff_id);
    expect(connected).toMatchObject({ state: 'connected', job_id: null });
    // From now on the desktop follows the phone for the follow window.
    expect(Date.parse(connected.expires_at)).toBeGreaterThanOrEqual(before + HANDOFF.followMs);
  });

  it('answers a used code and a forged one with the same 410', async () => {
    const desktop = await desktopWithCode(client);
    expect((await claim(client, desktop.token)).status).toBe(200);
    const used = await errorOf(await claim(client, desktop.token), 'handoffInvalid');
    const forged = await errorOf(await claim(client, 'K7M2'.repeat(7)), 'handoffInvalid');
    expect(used).toEqual(forged);
    expect(used.error).toBe(API_ERRORS.handoffInvalid.message);
  });

  it("takes the phone's progress only from the continued session", async () => {
    const desktop = await desktopWithCode(client);
    const state = (body: Record<string, unknown>, id = desktop.handoff_id) =>
      client.postJson(`/api/handoff/${id}/state`, body);
    // Nobody claimed it yet.
    await errorOf(await state({ user_session_id: desktop.sessionId, state: 'uploading' }), 'handoffNotFound');
    await claim(client, desktop.token);

    const sending = await state({ user_session_id: desktop.sessionId, state: 'uploading' });
    expect(sending.status).toBe(204);
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'uploading' });
    expect((await state({ user_session_id: desktop.sessionId, state: 'connected' })).status).toBe(204);
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'connected' });

    await errorOf(await state({ user_session_id: newSessionId(), state: 'uploading' }), 'handoffNotFound');
    await errorOf(
      await state({ user_session_id: desktop.sessionId, state: 'uploading' }, randomUUID()),
      'handoffNotFound',
    );
    // Only the server says a photo was submitted.
    const submitted = await errorOf(
      await state({ user_session_id: desktop.sessionId, state: 'submitted' }),
      'invalidField',
    );
    expect(submitted.error).toContain('"state"');
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'connected' });
  });

  it("streams the phone's progress to the desktop until its photo is a job, which the poll then names", async () => {
    const desktop = await desktopWithCode(client);
    const stream = await openEventStream(`${server.url}/api/handoff/${desktop.handoff_id}/stream`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await stream.until(1);

    const phone = ((await (await claim(client, desktop.token)).json()) as HandoffClaimResponse).user_session_id;
    await stream.until(2);
    await client.postJson(`/api/handoff/${desktop.handoff_id}/state`, { user_session_id: phone, state: 'uploading' });
    await stream.until(3);
    const upload = await client.upload(
      { user_session_id: phone, handoff_id: desktop.handoff_id },
      { bytes: await facePhoto() },
    );
    expect(upload.status).toBe(202);
    const { job_id: jobId } = (await upload.json()) as { job_id: string };
    await stream.ended;

    const states = stream.messages.map((message) => (message.data as HandoffStatus).state);
    expect(states).toEqual(['waiting', 'connected', 'uploading', 'submitted']);
    expect(stream.messages.at(-1)?.data).toMatchObject({ state: 'submitted', job_id: jobId });
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'submitted', job_id: jobId });
    // The desktop now follows the job, which is the phone's session's.
    expect((await client.get(`/api/queue/position/${jobId}`)).status).toBe(200);
    // A reconnect after the end is told to stop.
    const again = await client.get(`/api/handoff/${desktop.handoff_id}/stream`, { 'last-event-id': '4' });
    expect(again.status).toBe(204);
  });

  it('accepts the photo whatever hand-off it names, and follows only its own session’s', async () => {
    const desktop = await desktopWithCode(client);
    await claim(client, desktop.token);
    const photo = { bytes: await facePhoto() };
    for (const handoffId of ['not-a-hand-off', randomUUID(), desktop.handoff_id]) {
      // A stranger naming the hand-off (its session has its own consent) does not move it.
      const stranger = newSessionId();
      await client.consent(stranger);
      const response = await client.upload({ user_session_id: stranger, handoff_id: handoffId }, photo);
      expect(response.status).toBe(202);
    }
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'connected', job_id: null });
  });

  it('refuses malformed input with a message naming the field', async () => {
    const desktop = await desktopWithCode(client);
    const badToken = await errorOf(await claim(client, 'not a code'), 'invalidField');
    expect(badToken.error).toBe(`Invalid field "token": must be ${HANDOFF.tokenChars} characters of the code`);
    expect((await errorOf(await claim(client, desktop.token.slice(1)), 'invalidField')).error).toContain('"token"');
    const extra = await client.postJson('/api/handoff/claim', { token: desktop.token, user_agent: 'x' });
    expect((await errorOf(extra, 'invalidField')).error).toContain('user_agent');
    const badJob = await client.postJson('/api/handoff', { user_session_id: desktop.sessionId, job_id: 'job-1' });
    expect((await errorOf(badJob, 'invalidField')).error).toContain('"job_id"');
    const badSession = await client.postJson('/api/handoff', { user_session_id: 'me' });
    expect((await errorOf(badSession, 'invalidField')).error).toContain('"user_session_id"');
    // An address that cannot name a hand-off names none.
    await errorOf(await client.get('/api/handoff/not-a-uuid'), 'handoffNotFound');
    await errorOf(await client.get('/api/handoff/not-a-uuid/stream'), 'handoffNotFound');
    await errorOf(await client.get(`/api/handoff/${randomUUID()}`), 'handoffNotFound');
    await errorOf(await client.get(`/api/handoff/${randomUUID()}/stream`), 'handoffNotFound');
    // The code was not spent by any of this.
    expect((await claim(client, desktop.token)).status).toBe(200);
  });

  it('needs the XSRF header on every call that changes a hand-off', async () => {
    const desktop = await desktopWithCode(client);
    const response = await fetch(`${server.url}/api/handoff/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: desktop.token }),
    });
    await errorOf(response, 'xsrf');
    expect((await claim(client, desktop.token)).status).toBe(200);
  });

  it("opens the session's own finished artwork on the phone, and no one else's", async () => {
    const desktop = await desktopWithCode(client);
    const upload = await client.upload({ user_session_id: desktop.sessionId }, { bytes: await facePhoto() });
    const { job_id: jobId } = (await upload.json()) as { job_id: string };
    const create = (body: Record<string, unknown>) => client.postJson('/api/handoff', body);
    // Not finished yet, then another session's, then a job nobody has.
    await errorOf(await create({ user_session_id: desktop.sessionId, job_id: jobId }), 'resultNotFound');
    expect((await client.waitUntilFinal(jobId)).status).toBe('completed');
    const stranger = newSessionId();
    await client.consent(stranger);
    await errorOf(await create({ user_session_id: stranger, job_id: jobId }), 'resultNotFound');
    await errorOf(await create({ user_session_id: desktop.sessionId, job_id: randomUUID() }), 'resultNotFound');

    const response = await create({ user_session_id: desktop.sessionId, job_id: jobId });
    expect(response.status).toBe(201);
    const artwork = (await response.json()) as HandoffCreateResponse;
    expect(await poll(client, artwork.handoff_id)).toMatchObject({ state: 'waiting', job_id: jobId });
    const claimed = (await (await claim(client, artwork.token)).json()) as HandoffClaimResponse;
    expect(claimed).toMatchObject({ user_session_id: desktop.sessionId, job_id: jobId });
    expect(await poll(client, artwork.handoff_id)).toMatchObject({ state: 'connected', job_id: jobId });
  });
});

describe('a code that runs out', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    // Codes last a second; one stream at a time; three codes a window.
    server = await startTestServer({ HANDOFF_TTL: '1', STREAM_LIMIT: '1', RATE_LIMIT_HANDOFF: '3' });
    client = await new Client(server.url).init();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('tells the following desktop it expired, and is refused on the phone like a used one', async () => {
    const desktop = await desktopWithCode(client);
    const stream = await openEventStream(`${server.url}/api/handoff/${desktop.handoff_id}/stream`);
    await stream.until(1);

    // Over the stream limit: the second desktop is told to poll instead.
    const second = await openEventStream(`${server.url}/api/handoff/${desktop.handoff_id}/stream`);
    await second.ended;
    // The same message as an overloaded job stream, which followers of either know.
    expect(second.messages).toEqual([{ event: 'message', data: expect.objectContaining({ status: 'error' }) }]);

    await stream.ended;
    expect(stream.messages.map((message) => (message.data as HandoffStatus).state)).toEqual(['waiting', 'expired']);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(desktop.expires_at));
    expect(await poll(client, desktop.handoff_id)).toMatchObject({ state: 'expired', expires_at: desktop.expires_at });
    const refused = await errorOf(await claim(client, desktop.token), 'handoffInvalid');
    expect(refused.error).toBe(API_ERRORS.handoffInvalid.message);
  });

  it('limits how many codes one address asks for', async () => {
    const sessionId = newSessionId();
    await client.consent(sessionId);
    const ask = () => client.postJson('/api/handoff', { user_session_id: sessionId });
    // The test above asked for one.
    expect((await ask()).status).toBe(201);
    expect((await ask()).status).toBe(201);
    await errorOf(await ask(), 'rateLimited');
  });
});
