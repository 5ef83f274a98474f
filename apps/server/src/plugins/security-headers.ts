import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * What the web app needs: its own scripts, styles and fonts, camera streams, blob/data images, and
 * WebAssembly compiled from its own files (the face guide's detector; `wasm-unsafe-eval` allows
 * compiling WASM, not JavaScript's eval).
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A held-open event stream: it gets its own few headers (nosniff, no caching) instead of helmet's.
     * Node keeps a response's headers for as long as it is open, and helmet's set of document headers
     * (CSP, frame and referrer policies…) is about 5 KB per stream, half of what each open stream costs,
     * while an event stream is never rendered as a document.
     */
    eventStream?: boolean;
  }
}

/**
 * helmet's headers on every response but event streams. One helmet instance for the process: building it per request
 * (as the Fastify wrapper does) costs more than answering a poll.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const applyHeaders = helmet({ contentSecurityPolicy: { directives: CSP_DIRECTIVES } });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.eventStream) return done();
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
