import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** What the web app needs: its own scripts, styles and fonts, camera streams, blob/data images. */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", 'data:'],
  imgSrc: ["'self'", 'blob:', 'data:'],
  mediaSrc: ["'self'", 'blob:', 'mediastream:'],
  connectSrc: ["'self'", 'blob:', 'data:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * helmet's headers on every response. One helmet instance for the process: building it per request
 * (as the Fastify wrapper does) costs more than answering a poll.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const applyHeaders = helmet({ contentSecurityPolicy: { directives: CSP_DIRECTIVES } });
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
