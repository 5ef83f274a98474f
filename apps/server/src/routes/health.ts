import { API_ERRORS } from '@selfie-mosaic/contract';
import type { App, Services } from './context.js';

export function healthRoutes(app: App, { lifecycle, health }: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (!lifecycle.ready) return reply.code(503).send({ error: API_ERRORS.notReady.message });
    // Writes failing (a full disk, a read-only database): a load balancer sends visitors elsewhere.
    if (health.current) return reply.code(503).send({ error: API_ERRORS[health.current].message });
    return { status: 'ready' };
  });
}
