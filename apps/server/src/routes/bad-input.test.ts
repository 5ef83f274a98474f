import { API_ERRORS, XSRF } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, newSessionId, startTestServer, type TestServer } from '../test/harness.js';
import { rawExchange, xsrfPair } from '../test/raw-http.js';

const BOUNDARY = 'selfie-boundary';

/** Everything the server logged, as parsed pino lines. */
const logLines: { level: number; msg?: string; [key: string]: unknown }[] = [];
let server: TestServer;
let xsrf: { cookie: string; token: string };
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer(
    { LOG_LEVEL: 'trace', RATE_LIMIT_UPLOAD: '1000' },
    { logStream: { write: (line) => logLines.push(JSON.parse(line)) } },
  );
  xsrf = await xsrfPair(server.url);
  sessionId = newSessionId();
  const client = await new Client(server.url).init();
  expect((await client.consent(sessionId)).status).toBe(201);
});

afterAll(async () => {
  await server?.stop();
});

function uploadHead(contentType: string, length: number): string {
  return [
    'POST /api/upload HTTP/1.1',
    'Host: localhost',
    `Cookie: ${xsrf.cookie}`,
    `${XSRF.header}: ${xsrf.token}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
}

function sessionPart(): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="user_session_id"\r\n\r\n${sessionId}\r\n`;
}

function photoPartHead(): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
}

/** Sends an upload body whose Content-Length matches, over a real socket, and reads the answer. */
async function upload(contentType: string, body: Buffer | string) {
  const bytes = Buffer.from(body);
  const answer = await rawExchange(server.url, [uploadHead(contentType, bytes.length), bytes]);
  return { ...answer, json: JSON.parse(answer.body) as { error: string } };
}

function errorsLogged() {
  return logLines.filter((line) => line.level >= 50);
}

describe('malformed multipart uploads', () => {
  const multipart = `multipart/form-data; boundary=${BOUNDARY}`;

  it('answers 400 with a message when the content type has no boundary', async () => {
    const answer = await upload('multipart/form-data', `${sessionPart()}--${BOUNDARY}--\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(API_ERRORS.malformedUpload.message);
  });

  it('answers 400 to random bytes', async () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    const answer = await upload(multipart, random);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(API_ERRORS.malformedUpload.message);
  });

  it('answers 400 to a body cut short inside the photo', async () => {
    const photo = await facePhoto();
    const body = Buffer.concat([Buffer.from(sessionPart() + photoPartHead()), photo.subarray(0, 2000)]);
    const answer = await upload(multipart, body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(API_ERRORS.malformedUpload.message);
  });

  it('answers 400 to part headers that are not headers', async () => {
    const body = `--${BOUNDARY}\r\n${'\u0000\u0001garbage'.repeat(20)}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`;
    const answer = await upload(multipart, body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/\S/);
  });

  it('logs none of them as a server error', () => {
    expect(errorsLogged()).toEqual([]);
  });

  it('logs a visitor who drops the connection mid-upload at debug, without a stack', async () => {
    const photo = await facePhoto();
    const start = Buffer.concat([Buffer.from(sessionPart() + photoPartHead()), photo.subarray(0, 4000)]);
    const seen = logLines.length;
    await rawExchange(server.url, [uploadHead(multipart, start.length + photo.length), start], {
      // Gone a moment later, as a phone losing its signal is.
      onConnect: (socket) => setTimeout(() => socket.destroy(), 300),
    });
    await expect
      .poll(() => logLines.slice(seen).find((line) => /closed the connection/.test(line.msg ?? '')), {
        timeout: 10_000,
      })
      .toMatchObject({ level: 20 });
    const after = logLines.slice(seen);
    expect(after.filter((line) => line.level >= 40)).toEqual([]);
    expect(JSON.stringify(after)).not.toContain('stack');
  });
});

describe('requests the framework refuses', () => {
  it('answers a URL that cannot be decoded from the catalogue, without echoing it', async () => {
    for (const pathname of ['/api/queue/position/%E0%A4%zzecho-me', '/%zzecho-me']) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status).toBe(400);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: API_ERRORS.badUrl.message, code: 'badUrl' });
      expect(body).not.toContain('echo-me');
    }
  });

  it('answers headers over the size limit with 431 from the catalogue', async () => {
    const big = 'x'.repeat(20_000);
    const answer = await rawExchange(server.url, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`]);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ error: API_ERRORS.headersTooLarge.message });
    expect(answer.body).not.toContain('xxxx');
  });

  it('answers a request line that is not HTTP with 400, echoing nothing', async () => {
    for (const line of ['FROBNICATE /healthz HTTP/1.1', 'GET /healthz HTTP/9.9', '<script>alert(1)</script>']) {
      const answer = await rawExchange(server.url, [`${line}\r\nHost: x\r\n\r\n`]);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: API_ERRORS.invalidField.message, code: 'invalidField' });
    }
  });

  it('answers a method no route has with 404 and an unsupported content type with 415, echoing neither', async () => {
    const client = await new Client(server.url).init();
    const put = await fetch(`${server.url}/api/consent`, { method: 'PUT', headers: client.xsrfHeaders });
    expect(put.status).toBe(404);
    expect(await put.json()).toEqual({ error: API_ERRORS.notFound.message, code: 'notFound' });
    const odd = await client.postJson('/api/consent', 'x', { 'content-type': 'application/x-evil-<b>echo</b>' });
    expect(odd.status).toBe(415);
    expect(await odd.text()).not.toContain('evil');
  });

  it('answers an upload that is not multipart with 415', async () => {
    const answer = await upload('text/plain', 'hello');
    expect(answer.status).toBe(415);
    expect(answer.json.error).toMatch(/multipart/);
  });

  it('logged no server error for any of them', () => {
    expect(errorsLogged()).toEqual([]);
  });
});
