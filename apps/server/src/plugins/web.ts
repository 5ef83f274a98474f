import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { COUNTRY_CODES, isLocaleCode } from '@selfie-mosaic/campaign';
import { ADMIN_PATHS, ApiError, isScreenName } from '@selfie-mosaic/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Whether a path is one of the single-page app's routes (docs/product.md#routes), in any letter case: the app sends
 * `/GB/EN/start` on to its lower-case address, so such a page is served, not a 404.
 */
export function isAppRoute(pathname: string): boolean {
  const segments = pathname.toLowerCase().split('/').filter(Boolean);
  const [country, language, screen] = segments;
  if (segments.length === 0) return true;
  if (!country || !COUNTRY_CODES.includes(country)) return false;
  if (segments.length === 1) return true;
  if (language === undefined || !isLocaleCode(language)) return false;
  // `/:country/:language` is answered by the app with a redirect to its start screen.
  return segments.length === 2 || (segments.length === 3 && isScreenName(screen));
}

function cacheControlFor(filePath: string, webDist: string): string {
  // A precompressed sibling (`index.html.br`) is cached like the file it stands for.
  const relative = path
    .relative(webDist, filePath)
    .split(path.sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  if (relative.startsWith('assets/')) return IMMUTABLE;
  if (relative === 'index.html' || relative.startsWith('builds/')) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * Hosts the web build: hashed assets cached for good, index.html and build manifests revalidated,
 * the app's routes answered with index.html (200), any other page with index.html and 404 so the app
 * shows its 404 page, and unknown API paths with a JSON 404; `/admin` with index.html only while the dashboard
 * is on. Text files go out as the `.br`/`.gz` siblings the build wrote (`Vary: Accept-Encoding`), so nothing is compressed per request.
 */
export async function registerWeb(
  app: FastifyInstance,
  webDist: string,
  { adminPage }: { adminPage: boolean } = { adminPage: false },
): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlFor(filePath, webDist)),
    });
  }

  // Read per request (a new build can replace index.html while the server runs), precompressed like
  // the assets; setHeaders above marks it no-cache.
  const sendIndex = (reply: FastifyReply, status: number) => reply.code(status).sendFile('index.html');

  if (hasWeb) app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply, 200));
  // The dashboard is a page of the app only while an admin secret is set; otherwise an unknown path like any other.
  if (hasWeb && adminPage)
    app.get(ADMIN_PATHS.page, { schema: { hide: true } }, (_request, reply) => sendIndex(reply, 200));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (pathname.startsWith('/api/') || pathname === '/api' || !wantsPage || !hasWeb) {
      throw new ApiError('notFound');
    }
    return sendIndex(reply, isAppRoute(pathname) ? 200 : 404);
  });
}
