import { ApiError } from '@selfie-mosaic/contract';
import { FAULTS } from '../services/storage-health.js';
import type { App, Services } from './context.js';

export function healthRoutes(app: App, { lifecycle, health, backend }: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!lifecycle.ready) throw new ApiError('notReady');
    // A database or Redis that went away while nothing used it is noticed here: a load balancer asks often.
    if (!health.current) {
      await backend.ping().catch((error: unknown) => {
        if (!health.report(error)) throw error;
      });
    }
    // Writes failing (a full disk, a read-only database) or a dependency away: a load balancer sends
    // visitors elsewhere. Readiness is 503 whatever the fault; the message says which.
    const fault = health.current;
    if (fault) {
      throw new ApiError('notReady', FAULTS[fault].log, { 'retry-after': String(FAULTS[fault].retryAfterSeconds) });
    }
    return { status: 'ready' };
  });
}
