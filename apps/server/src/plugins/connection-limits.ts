import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** How often Node looks for requests past their headers or request timeout: a fraction of the shorter one. */
function checkingIntervalMs({ headersMs, requestMs }: Config['timeouts']): number {
  return Math.min(5000, Math.max(50, Math.min(headersMs, requestMs) / 4));
}

/**
 * The socket timeouts, each closing one way a client could hold a connection for free:
 * - `connectionTimeout` (idle): no byte either way for this long, mid-request or mid-stream. Event
 *   streams stay open because every heartbeat is a write (config keeps the heartbeat below it).
 * - `headersTimeout`: a request whose headers trickle in (slowloris).
 * - `requestTimeout`: a whole request, upload body included, that arrives too slowly (slow body). It
 *   only counts until the request is read, so a long event stream is not cut by it.
 * - `keepAliveTimeout`: an idle connection between requests.
 */
export function connectionOptions(config: Config) {
  const { timeouts } = config;
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node's default (30 s) would let a slow request outlive its timeout by up to that long.
      connectionsCheckingInterval: checkingIntervalMs(timeouts),
    } satisfies ServerOptions,
  };
}

/**
 * Caps the connections one peer address holds open, so a single client cannot take thousands of sockets
 * (each costs memory and a file descriptor). The cap is on the TCP peer: behind a proxy that is the
 * proxy, so config leaves it off there by default.
 */
export function limitConnectionsPerAddress(app: FastifyInstance, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
