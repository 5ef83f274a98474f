import { API_ERRORS, ApiError } from '@selfie-mosaic/contract';
import type { App, Services } from './context.js';

export function healthRoutes(app: App, { lifecycle, health }: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!lifecycle.ready) throw new ApiError('notReady');
    // Writes failing (a full disk, a read-only database): a load balancer sends visitors elsewhere.
    // Readiness is 503 whatever the fault; the message says which one.
    if (health.current) throw new ApiError('notReady', API_ERRORS[health.current].message);
    return { status: 'ready' };
  });
}
