import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_COOKIE, ADMIN_PATHS, adminLiveSchema } from '@selfie-mosaic/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminSecret, hashPassword } from '../admin/secret.js';
import { adminGet, signIn, TEST_ADMIN_TOKEN } from '../test/admin.js';
import { Client, MODES, modeEnv, startTestServer, type TestServer } from '../test/harness.js';

describe.each(MODES)('admin sign-in, %s mode', (mode) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });
  async function start(env: Record<string, string> = {}): Promise<Client> {
    const server = await startTestServer({ ...(await modeEnv(mode)), ...env });
    servers.push(server);
    return new Client(server.url).init();
  }

  it('answers every admin path with 404, as an unknown one, while no admin secret is set', async () => {
    const client = await start();
    for (const pathname of [ADMIN_PATHS.live, ADMIN_PATHS.session, ADMIN_PATHS.funnel, ADMIN_PATHS.consentExport]) {
      const response = await client.get(pathname);
      expect(response.status, pathname).toBe(404);
      expect(await response.json()).toEqual(await (await client.get('/api/nothing-here')).json());
    }
    expect((await client.postJson(ADMIN_PATHS.session, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
  });

  it('refuses a wrong token with 401, then every try with 429 once the limit is reached; the right one reads data', async () => {
    const client = await start({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const session = await signIn(client);
    const live = await adminGet(client, ADMIN_PATHS.live, session);
    expect(live.status).toBe(200);
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(adminLiveSchema.parse(await live.json())).toMatchObject({
      queue_depth: 0,
      processing: 0,
      window_minutes: 15,
    });

    // RATE_LIMIT_SIGN_IN allows 5 tries a minute by default, right or wrong: the sign-in above was the first.
    for (let attempt = 2; attempt <= 5; attempt++) {
      const wrong = await client.postJson(ADMIN_PATHS.session, { token: `${TEST_ADMIN_TOKEN}x` });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ code: 'unauthorized' });
      expect(wrong.headers.getSetCookie().some((c) => c.startsWith(ADMIN_COOKIE.name))).toBe(false);
    }
    const limited = await client.postJson(ADMIN_PATHS.session, { token: TEST_ADMIN_TOKEN });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'rateLimited' });
  });

  it('sets an HttpOnly, SameSite=Strict cookie scoped to the admin API, and checks it on every call', async () => {
    const client = await start({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const response = await client.postJson(ADMIN_PATHS.session, { token: TEST_ADMIN_TOKEN });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${ADMIN_COOKIE.name}=`)) ?? '';
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toContain(`; Path=${ADMIN_COOKIE.path}`);
    expect(cookie).toContain(`; Max-Age=${ADMIN_COOKIE.maxAgeSeconds}`);
    const session = cookie.split(';')[0] as string;
    expect((await adminGet(client, ADMIN_PATHS.session, session)).status).toBe(204);

    const secret = new AdminSecret({ kind: 'token', token: TEST_ADMIN_TOKEN });
    const [expiry, signature] = session.slice(ADMIN_COOKIE.name.length + 1).split('.');
    const refused = {
      none: '',
      forged: `${ADMIN_COOKIE.name}=${expiry}.${'A'.repeat(signature?.length ?? 43)}`,
      'longer expiry': `${ADMIN_COOKIE.name}=${Number(expiry) + 3600}.${signature}`,
      expired: `${ADMIN_COOKIE.name}=${secret.issue(Date.now() - 1000)}`,
      'other secret': `${ADMIN_COOKIE.name}=${new AdminSecret({ kind: 'token', token: `${TEST_ADMIN_TOKEN}-old` }).issue(Date.now() + 60_000)}`,
    };
    for (const [what, bad] of Object.entries(refused)) {
      for (const pathname of [
        ADMIN_PATHS.session,
        ADMIN_PATHS.live,
        `${ADMIN_PATHS.funnel}?from=2026-01-01&to=2026-01-02`,
      ]) {
        const answer = await adminGet(client, pathname, bad);
        expect(answer.status, `${what} ${pathname}`).toBe(401);
        expect(await answer.json()).toMatchObject({ code: 'unauthorized' });
      }
    }

    const signOut = await fetch(`${client.baseUrl}${ADMIN_PATHS.session}`, {
      method: 'DELETE',
      headers: { ...client.xsrfHeaders, cookie: `${client.xsrfHeaders.cookie}; ${session}` },
    });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.getSetCookie().find((c) => c.startsWith(`${ADMIN_COOKIE.name}=;`))).toBeDefined();
  });

  it('marks the cookie Secure when the request came over HTTPS through the trusted proxy', async () => {
    const client = await start({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, TRUST_PROXY: '1' });
    const cookieOf = async (headers: Record<string, string>) => {
      const response = await client.postJson(ADMIN_PATHS.session, { token: TEST_ADMIN_TOKEN }, headers);
      return response.headers.getSetCookie().find((c) => c.startsWith(`${ADMIN_COOKIE.name}=`)) ?? '';
    };
    expect(await cookieOf({ 'x-forwarded-proto': 'https' })).toMatch(/; Secure/i);
    expect(await cookieOf({})).not.toMatch(/; Secure/i);
  });

  it('signs in with the password whose scrypt hash is ADMIN_PASSWORD_HASH', async () => {
    const password = 'correct horse battery staple';
    const client = await start({ ADMIN_PASSWORD_HASH: await hashPassword(password) });
    expect((await client.postJson(ADMIN_PATHS.session, { token: 'correct horse battery stapler' })).status).toBe(401);
    const session = await signIn(client, password);
    expect((await adminGet(client, ADMIN_PATHS.live, session)).status).toBe(200);
  });
});

describe('the /admin page', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  async function withWeb(env: Record<string, string>): Promise<TestServer> {
    const web = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-web-'));
    dirs.push(web);
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Selfie Mosaic</title>');
    return startTestServer({ WEB_DIST: web, ...env });
  }

  it('is the app (200) only while the dashboard is on, otherwise the 404 page like any unknown path', async () => {
    const off = await withWeb({});
    const on = await withWeb({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    try {
      const offPage = await fetch(`${off.url}${ADMIN_PATHS.page}`);
      expect(offPage.status).toBe(404);
      expect(await offPage.text()).toBe(await (await fetch(`${off.url}/no-such-page`)).text());
      const onPage = await fetch(`${on.url}${ADMIN_PATHS.page}`);
      expect(onPage.status).toBe(200);
      expect(await onPage.text()).toContain('<title>Selfie Mosaic</title>');
    } finally {
      await off.stop();
      await on.stop();
    }
  });
});

describe('the OpenAPI document', () => {
  it('lists the operators’ calls only while the dashboard is on', async () => {
    const on = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const off = await startTestServer();
    try {
      const paths = async (server: TestServer) =>
        Object.keys(((await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: object }).paths);
      expect(await paths(on)).toEqual(expect.arrayContaining(Object.values(ADMIN_PATHS).filter((p) => p !== '/admin')));
      expect((await paths(off)).filter((p) => p.startsWith('/api/admin'))).toEqual([]);
      expect(await paths(off)).toContain('/api/analytics/event');
    } finally {
      await on.stop();
      await off.stop();
    }
  });
});
