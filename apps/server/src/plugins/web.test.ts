import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { DEFAULT_CAMPAIGN, withCampaign } from '@selfie-mosaic/campaign';
import { API_ERRORS, XSRF } from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { isAppRoute as isRoute } from './web.js';

const INDEX = '<!doctype html><html><head><title>Selfie Mosaic</title></head><body><div id="root"></div></body></html>';

/** The page as served: the build's index.html with today's campaign in it. */
const PAGE = withCampaign(INDEX, DEFAULT_CAMPAIGN);
const isAppRoute = (pathname: string) => isRoute(pathname, DEFAULT_CAMPAIGN);

const APP_JS = `export const tiles = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `tile-${i}`))};`;

let server: TestServer;

/** A raw GET (fetch would decode the body and hide the encoding that was sent). */
function rawGet(pathname: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
      request(`${server.url}${pathname}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    },
  );
}

beforeAll(async () => {
  server = await startTestServer({}, {});
  const webDist = path.join(server.dataDir, 'web');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  mkdirSync(path.join(webDist, 'builds'), { recursive: true });
  writeFileSync(path.join(webDist, 'index.html'), INDEX);
  writeFileSync(path.join(webDist, 'assets', 'index-4f2a9c1b.js'), 'console.log("app");');
  // What the web build's precompress step writes beside each text asset.
  writeFileSync(path.join(webDist, 'assets', 'app-9d8e7f6a.js'), APP_JS);
  writeFileSync(path.join(webDist, 'assets', 'app-9d8e7f6a.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(path.join(webDist, 'assets', 'app-9d8e7f6a.js.gz'), gzipSync(APP_JS));
  writeFileSync(path.join(webDist, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(path.join(webDist, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(path.join(webDist, 'builds', 'latest.json'), '{"id":"4f2a9c1b"}');
  writeFileSync(path.join(webDist, 'robots.txt'), 'User-agent: *\n');
  // The web build must exist when the app is built, so restart on the same data dir with WEB_DIST set.
  await server.close();
  server = await startTestServer({ WEB_DIST: webDist }, { dataDir: server.dataDir });
});

afterAll(async () => {
  await server.stop();
});

describe('hosting the web build', () => {
  it.each([
    '/',
    '/de',
    '/de/de/start',
    '/ae/ae-ar/result',
    '/kz/kz-ru/photo',
    '/ch/fr/curious',
    '/lv/lv/terms',
    '/gb/en/download',
    '/jo/jo-en/exit',
    '/gb/en',
    '/me/bm',
    '/GB/EN/start',
    '/De/dE/Curious',
  ])('answers the app route %s with index.html, 200, uncached', async (pathname) => {
    const response = await fetch(`${server.url}${pathname}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(PAGE);
  });

  it('sets the XSRF cookie with the page', async () => {
    const response = await fetch(`${server.url}/de/de/start`);
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${XSRF.cookie}=`))).toBe(true);
  });

  it.each(['/xx', '/de/de/nowhere', '/de/xx/start', '/de/de/start/extra', '/no/such/page/here'])(
    'answers the unknown page %s with index.html and 404, so the app shows its 404 page',
    async (pathname) => {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe(PAGE);
    },
  );

  it('caches hashed assets for good and revalidates build manifests and index.html', async () => {
    const asset = await fetch(`${server.url}/assets/index-4f2a9c1b.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const latest = await fetch(`${server.url}/builds/latest.json`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('cache-control')).toBe('no-cache');
    expect(await latest.json()).toEqual({ id: '4f2a9c1b' });
    const index = await fetch(`${server.url}/index.html`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
  });

  it('sends the brotli or gzip file the build wrote, by Accept-Encoding, and says it varies on it', async () => {
    const brotli = await rawGet('/assets/app-9d8e7f6a.js', 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(APP_JS);

    const gzip = await rawGet('/assets/app-9d8e7f6a.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(APP_JS);

    const plain = await rawGet('/assets/app-9d8e7f6a.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(APP_JS);
  });

  it('sends the app page compressed too, with its status and no-cache', async () => {
    const page = await rawGet('/gb/en/start', 'br');
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.body).toString()).toBe(PAGE);
    const missing = await rawGet('/de/de/nowhere', 'gzip');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(missing.body).toString()).toBe(PAGE);
  });

  it('answers unknown API paths and missing assets with JSON 404', async () => {
    const api = await fetch(`${server.url}/api/unknown`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: API_ERRORS.notFound.message, code: 'notFound' });
    const traversal = await fetch(`${server.url}/assets/..%2F..%2Fselfie-mosaic.sqlite`);
    expect(traversal.status).toBe(404);
    expect(await traversal.text()).not.toContain('SQLite');
  });
});

describe('isAppRoute', () => {
  it('knows the routes of the app and nothing else', () => {
    expect(isAppRoute('/')).toBe(true);
    expect(isAppRoute('/me')).toBe(true);
    expect(isAppRoute('/me/bm/start')).toBe(true);
    expect(isAppRoute('/me/bm/start/')).toBe(true);
    expect(isAppRoute('/favicon.ico')).toBe(false);
    expect(isAppRoute('/me/bm')).toBe(true);
    expect(isAppRoute('/me/zz')).toBe(false);
    expect(isAppRoute('/me/zz/start')).toBe(false);
    expect(isAppRoute('/GB/EN/start')).toBe(true);
    expect(isAppRoute('/GB')).toBe(true);
    expect(isAppRoute('/GB/EN/Nowhere')).toBe(false);
  });
});
