import { API_ERRORS } from '@selfie-mosaic/contract';
import type { App, Services } from './context.js';

export function healthRoutes(app: App, { lifecycle }: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (!lifecycle.ready) return reply.code(503).send({ error: API_ERRORS.notReady.message });
    return { status: 'ready' };
  });
}
