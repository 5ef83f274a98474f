import { ApiError } from '@selfie-mosaic/contract';
import type { App, Services } from './context.js';

export function healthRoutes(app: App, { lifecycle }: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!lifecycle.ready) throw new ApiError('notReady');
    return { status: 'ready' };
  });
}
