import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { type Campaign, findMarket, isLocaleCode } from '@selfie-mosaic/campaign';
import { ADMIN_PATHS, ApiError, isScreenName } from '@selfie-mosaic/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { campaignIndex } from './campaign-page.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Whether a path is one of the single-page app's routes (docs/product.md#routes), in any letter case: the app sends
 * `/GB/EN/start` on to its lower-case address, so such a page is served, not a 404.
 */
export function isAppRoute(pathname: string, campaign: Pick<Campaign, 'markets'>): boolean {
  const segments = pathname.toLowerCase().split('/').filter(Boolean);
  const [country, language, screen] = segments;
  if (segments.length === 0) return true;
  if (!country || !findMarket(campaign, country)) return false;
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
 * Hosts the web build: hashed assets cached for good, index.html (with the campaign in it) and build manifests revalidated,
 * the app's routes answered with index.html (200), any other page with index.html and 404 so the app
 * shows its 404 page, and unknown API paths with a JSON 404. Text files go out as the `.br`/`.gz`
 * siblings the build wrote (`Vary: Accept-Encoding`), so nothing is compressed per request. `/admin` is
 * answered with index.html only while the dashboard is on.
 */
export async function registerWeb(
  app: FastifyInstance,
  webDist: string,
  campaign: Campaign,
  { adminPage }: { adminPage: boolean } = { adminPage: false },
): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
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

  // The campaign goes into the page, so the page is never the build's file as it stands (nor its .br/.gz).
  const indexPage = campaignIndex(indexFile, campaign);
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const page = await indexPage(request.headers['accept-encoding']);
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding');
    if (page.encoding) reply.header('content-encoding', page.encoding);
    return reply.send(page.body);
  };

  if (hasWeb) {
    app.get('/', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply, 200));
    app.get('/index.html', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply, 200));
  }
  // The dashboard is a page of the app only while an admin secret is set; otherwise an unknown path like any other.
  if (hasWeb && adminPage) {
    app.get(ADMIN_PATHS.page, { schema: { hide: true } }, (request, reply) => sendIndex(request, reply, 200));
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (pathname.startsWith('/api/') || pathname === '/api' || !wantsPage || !hasWeb) {
      throw new ApiError('notFound');
    }
    return sendIndex(request, reply, isAppRoute(pathname, campaign) ? 200 : 404);
  });
}
