import net from 'node:net';
import { API_ERRORS, XSRF } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { rawExchange, xsrfPair } from '../test/raw-http.js';

/**
 * Short timeouts so each fault shows within seconds; the bounds asserted are generous (a loaded CI
 * machine) yet far below Node's own defaults (60 s headers, 5 min request, 30 s checking interval),
 * so a passing test shows these settings at work.
 */
const TIMEOUTS = {
  HEADERS_TIMEOUT: '1',
  REQUEST_TIMEOUT: '2',
  CONNECTION_TIMEOUT: '1.5',
  KEEP_ALIVE_TIMEOUT: '1',
  HEARTBEAT_INTERVAL: '0.3',
};
const CLOSED_WITHIN_MS = 15_000;
const PER_ADDRESS = 8;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...TIMEOUTS, CONNECTIONS_PER_IP: String(PER_ADDRESS) });
});

afterAll(async () => {
  await server?.stop();
});

function connect(): Promise<net.Socket> {
  const { port, hostname } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('connections the server closes', () => {
  it('caps the connections one address holds open', async () => {
    const sockets = await Promise.all(Array.from({ length: PER_ADDRESS + 6 }, () => connect()));
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    // The ones over the cap are closed at once, before any request: at least 6 of them go.
    await expect
      .poll(() => sockets.filter((socket) => socket.destroyed || socket.readyState !== 'open').length, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(6);
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
    // Once they are gone the address may connect again.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('closes a connection that never sends a request', async () => {
    const answer = await rawExchange(server.url, [], { giveUpMs: 30_000 });
    expect(answer.closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('closes a connection whose headers trickle in (slowloris) with 408', async () => {
    const answer = await rawExchange(server.url, ['GET /healthz HTTP/1.1\r\nHost: localhost\r\n'], {
      trickle: 'X-Slow: still-coming\r\n',
      pauseMs: 200,
      giveUpMs: 30_000,
    });
    expect(answer.closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ error: API_ERRORS.requestTimeout.message });
  });

  it('closes an upload whose body trickles in with 408', async () => {
    const { cookie, token } = await xsrfPair(server.url);
    const head = [
      'POST /api/upload HTTP/1.1',
      'Host: localhost',
      `Cookie: ${cookie}`,
      `${XSRF.header}: ${token}`,
      'Content-Type: multipart/form-data; boundary=slow',
      'Content-Length: 1000000',
      '',
      '--slow\r\nContent-Disposition: form-data; name="photo"; filename="me.jpg"\r\n\r\n',
    ].join('\r\n');
    const answer = await rawExchange(server.url, [head], { trickle: 'a', pauseMs: 200, giveUpMs: 30_000 });
    expect(answer.closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
    expect(answer.status).toBe(408);
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const answer = await rawExchange(server.url, ['GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'], {
      giveUpMs: 30_000,
    });
    expect(answer.status).toBe(200);
    expect(answer.closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });
});

describe('an event stream', () => {
  it('stays open through its heartbeats, well past every timeout', async () => {
    const { backend } = server.app.services;
    const consent = await backend.consents.add({
      sessionId: 'stream-session',
      countryIso: 'de',
      language: 'de',
      questionAnswer: 'yes',
      consentGiven: true,
    });
    const job = await backend.ledger.accepted(
      { id: crypto.randomUUID(), sessionId: 'stream-session', blacklabel: false, photoKey: 'never-read' },
      consent,
    );
    const socket = await connect();
    let received = '';
    let closed = false;
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('close', () => {
      closed = true;
    });
    socket.write(`GET /api/queue/stream/${job.id} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    // Three times the longest timeout above: a cut stream would have closed by now.
    await new Promise((resolve) => setTimeout(resolve, 3 * Number(TIMEOUTS.REQUEST_TIMEOUT) * 1000));
    expect(closed).toBe(false);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toContain('data: {"status":"pending"');
    expect(received.split(': ping').length - 1).toBeGreaterThanOrEqual(3);
    socket.destroy();
  });
});
