import { XSRF } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, consentRequest, newSessionId, startTestServer, type TestServer } from '../test/harness.js';
import { rawExchange } from '../test/raw-http.js';

const FORWARDED_FOR = '203.0.113.77';
const REAL_IP = '198.51.100.23';
const SECRET_COOKIE = 'visitor_secret=cookie-value-7f3a';

/**
 * Logs at trace, the most talkative level, while a visitor goes through everything (consent, upload,
 * poll, stream, page view) and an attacker sends what the parsers refuse; then no line may hold an
 * address (the socket's or a forwarded one) or a cookie value.
 */
describe('logs at trace level', () => {
  const lines: string[] = [];
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer(
      { LOG_LEVEL: 'trace', TRUST_PROXY: '1', RATE_LIMIT_CONSENT: '3' },
      { logStream: { write: (line) => lines.push(line) } },
    );
    client = await new Client(server.url).init();
  });

  afterAll(async () => {
    await server?.stop();
  });

  const visitorHeaders = () => ({
    ...client.xsrfHeaders,
    cookie: `${client.xsrfHeaders.cookie}; ${SECRET_COOKIE}`,
    'x-forwarded-for': FORWARDED_FOR,
    'x-real-ip': REAL_IP,
  });

  it('hold no IP address and no cookie, whatever the request', async () => {
    const headers = visitorHeaders();
    const token = client.xsrfHeaders[XSRF.header] as string;
    const sessionId = newSessionId();
    const consentBody = JSON.stringify(consentRequest(sessionId));
    const json = { ...headers, 'content-type': 'application/json' };
    expect(
      (await fetch(`${server.url}/api/consent`, { method: 'POST', headers: json, body: consentBody })).status,
    ).toBe(201);
    const form = new FormData();
    form.set('user_session_id', sessionId);
    form.set('blacklabel', 'false');
    form.set('photo', new Blob([await facePhoto()], { type: 'image/jpeg' }), 'me.jpg');
    const upload = await fetch(`${server.url}/api/upload`, { method: 'POST', headers, body: form });
    expect(upload.status).toBe(202);
    const { job_id: jobId } = (await upload.json()) as { job_id: string };
    expect((await fetch(`${server.url}/api/queue/position/${jobId}`, { headers })).status).toBe(200);
    const stream = await fetch(`${server.url}/api/queue/stream/${jobId}`, { headers });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    const pageview = JSON.stringify({
      country_iso: 'DE',
      language: 'de',
      page_path: '/de/de/start',
      ip_address: null,
      user_agent: null,
    });
    expect(
      (await fetch(`${server.url}/api/analytics/pageview`, { method: 'POST', headers: json, body: pageview })).status,
    ).toBe(204);
    // Past the consent rate limit, which keys on the (forwarded) address.
    for (let i = 0; i < 4; i++)
      await fetch(`${server.url}/api/consent`, { method: 'POST', headers: json, body: consentBody });
    // What the parsers refuse: their errors carry the raw request, cookies included.
    const rawCookie = `Cookie: ${headers.cookie}\r\nX-Forwarded-For: ${FORWARDED_FOR}\r\n`;
    await rawExchange(server.url, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\n${rawCookie}X-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
    ]);
    await rawExchange(server.url, [`BREW /healthz HTTP/1.1\r\nHost: x\r\n${rawCookie}\r\n`]);
    await fetch(`${server.url}/%zz`, { headers });
    const badForm = '--b\r\nContent-Disposition: form-data; name="photo"; filename="x"\r\n\r\nshort';
    await rawExchange(server.url, [
      `POST /api/upload HTTP/1.1\r\nHost: x\r\n${rawCookie}${XSRF.header}: ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${badForm.length}\r\nConnection: close\r\n\r\n${badForm}`,
    ]);
    await client.waitUntilFinal(jobId);

    const logged = lines.filter((line) => !line.includes('Server listening at')).join('\n');
    // The run did log at trace and debug: headers of the upload went through the multipart plugin.
    expect(logged).toContain('"level":10');
    expect(logged).toContain('/api/upload');
    for (const secret of [FORWARDED_FOR, REAL_IP, '127.0.0.1', '::ffff:', 'cookie-value-7f3a', token]) {
      expect(logged, `the logs hold ${secret}`).not.toContain(secret);
    }
    expect(logged).not.toMatch(/remoteAddress|remotePort|rawPacket/);
  });
});

describe('TRUST_PROXY=true', () => {
  it('warns at start that any client can then pose as any address', async () => {
    const lines: { level: number; msg: string }[] = [];
    const server = await startTestServer(
      { TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
      { logStream: { write: (line) => lines.push(JSON.parse(line)) } },
    );
    await server.stop();
    const warning = lines.find((line) => line.level === 40 && line.msg.includes('TRUST_PROXY=true'));
    expect(warning?.msg).toMatch(/X-Forwarded-For.*rate limits.*TRUST_PROXY=1/);
  });
});
