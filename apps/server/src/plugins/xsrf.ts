import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, XSRF } from '@selfie-mosaic/contract';
import type { FastifyInstance } from 'fastify';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit cookie: every response to a client without the readable `XSRF-TOKEN` cookie sets one
 * (the web app's index.html included); every mutating request must echo it in `X-XSRF-TOKEN`.
 */
export function registerXsrf(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const cookie = request.cookies[XSRF.cookie];
    if (!cookie) {
      reply.setCookie(XSRF.cookie, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'lax',
        secure: 'auto',
        httpOnly: false,
      });
    }
    if (!MUTATING.has(request.method)) return done();
    const header = request.headers[XSRF.header];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) return done(new ApiError('xsrf'));
    done();
  });
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
