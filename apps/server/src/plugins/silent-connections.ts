import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closes, when the server closes, the connections that never sent a request. Node's `server.close()`
 * ends idle keep-alive connections but does not see these (browsers open them speculatively, and an
 * event-stream client may leave one behind), so a single one held shutdown up to the headers timeout.
 */
export function closeSilentConnections(app: FastifyInstance): void {
  const silent = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  app.server.on('request', (request) => silent.delete(request.socket));
  app.addHook('preClose', async () => {
    for (const socket of silent) socket.destroy();
  });
}
