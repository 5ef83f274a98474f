import { randomUUID } from 'node:crypto';
import {
  ADMIN_PATHS,
  adminFunnelSchema,
  adminLiveSchema,
  FUNNEL_STEPS,
  type FunnelRow,
  type FunnelStep,
  type RefusalCode,
} from '@selfie-mosaic/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPostgres, openSqlite } from '../services/sql/connect.js';
import { SqlJobLedger } from '../services/sql/sql-ledger.js';
import type { ConsentRecord, JobLedger } from '../services/types.js';
import { adminGet, parseCsv, signIn, TEST_ADMIN_TOKEN } from '../test/admin.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';
import { readRows } from '../test/rows.js';

const DAY_A = '2026-03-01';
const DAY_B = '2026-03-02';
const DAY_MS = 24 * 60 * 60 * 1000;

type Steps = Partial<Record<FunnelStep, number>>;
const counts = (steps: Steps) => Object.fromEntries(FUNNEL_STEPS.map((step) => [step, steps[step] ?? 0]));
const row = (country: string, language: string, steps: Steps) =>
  ({ country_iso: country, language, ...counts(steps) }) as FunnelRow;

describe.each(MODES)('dashboard figures, %s mode', (mode) => {
  let server: TestServer;
  let env: Record<string, string>;
  let client: Client;
  let session: string;
  let ledgerClock = 0;
  let closeLedger: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    env = { ...(await modeEnv(mode)), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    server = await startTestServer(env);
    client = await new Client(server.url).init();
    session = await signIn(client);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await closeLedger?.();
    closeLedger = undefined;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const at = (time: string) => vi.setSystemTime(new Date(time));
  const view = async (country: string, language: string, pagePath: string) => {
    const response = await client.postJson('/api/analytics/pageview', {
      country_iso: country,
      language,
      page_path: pagePath,
      ip_address: null,
      user_agent: null,
    });
    expect(response.status).toBe(204);
  };
  const consent = async (country: string, language: string, answer: 'yes' | 'no', given: boolean) => {
    const sessionId = newSessionId();
    const overrides = { country_iso: country, language, question_answer: answer, consent_given: given };
    expect((await client.consent(sessionId, overrides)).status).toBe(201);
    return sessionId;
  };
  const event = async (country: string, language: string, name: 'download' | 'share') => {
    const response = await client.postJson('/api/analytics/event', {
      event: name,
      country_iso: country,
      language,
      ip_address: null,
      user_agent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    expect(response.status).toBe(204);
  };
  /**
   * A ledger on the server's own database whose clock the test sets, so uploads and ends are recorded at
   * given times (the server's ledger reads the real clock). Closed at the end of the test.
   */
  const openLedger = async (): Promise<JobLedger> => {
    const db = env.DATABASE_URL
      ? await openPostgres(env.DATABASE_URL, { poolSize: 1 })
      : (await openSqlite(server.dataDir)).db;
    closeLedger = () => db.destroy();
    return new SqlJobLedger(db, () => ledgerClock);
  };
  type End = { outcome: 'completed' | 'failed'; errorCode: RefusalCode | null; renderMs: number | null; at: number };
  const ending = (end: End) => ({ expiresAt: end.at + DAY_MS, renderMs: end.renderMs });
  const artwork = (end: End) => ({ token: randomUUID().replaceAll('-', ''), width: 1, height: 1, ...ending(end) });
  /** A job uploaded under `consent` at `uploadedAt`, then ended by its first delivery as `end` says. */
  const recordJob = async (ledger: JobLedger, consent: ConsentRecord, uploadedAt: number, end: End) => {
    const id = randomUUID();
    ledgerClock = uploadedAt;
    await ledger.accepted({ id, sessionId: consent.sessionId as string, blacklabel: false, photoKey: id }, consent);
    await ledger.queued(id);
    await ledger.started(id, { attempt: 1, id: 'delivery-1' });
    ledgerClock = end.at;
    if (end.outcome === 'completed') await ledger.completed(id, 'delivery-1', artwork(end));
    else await ledger.failed(id, { message: 'refused', code: end.errorCode, ...ending(end) }, 'delivery-1');
    return id;
  };
  const funnel = async (from: string, to: string) => {
    const response = await adminGet(client, `${ADMIN_PATHS.funnel}?from=${from}&to=${to}`, session);
    expect(response.status).toBe(200);
    return adminFunnelSchema.parse(await response.json());
  };

  it('counts each funnel step per market, locale and day from what visitors did', async () => {
    const { backend } = server.app.services;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    at(`${DAY_A}T09:00:00Z`);
    for (const page of [
      '/de/de/start',
      '/de/de/start',
      '/de/de/start?utm_source=mail',
      '/de/de/curious',
      '/de/de/curious',
    ]) {
      await view('DE', 'de', page);
    }
    // Screens that are no funnel step: counted as page views only.
    await view('DE', 'de', '/de/de/terms');
    await view('DE', 'de', '/de/de/result');
    await view('DE', 'de', '/de/de/photo');
    await view('FR', 'fr', '/fr/fr/start');
    await consent('DE', 'de', 'no', false);
    await consent('FR', 'fr', 'no', false);
    const first = await consent('DE', 'de', 'yes', true);
    const second = await consent('DE', 'de', 'yes', true);
    // Yes without accepting the terms is no consent.
    await consent('DE', 'de', 'yes', false);
    await event('DE', 'de', 'download');
    await event('DE', 'de', 'download');
    await event('DE', 'de', 'share');
    // Uploads are counted on their day, artworks on the day they were finished.
    const covering = async (sessionId: string) => (await backend.consents.coveringConsent(sessionId)) as ConsentRecord;
    const ledger = await openLedger();
    await recordJob(ledger, await covering(second), Date.parse(`${DAY_A}T14:00:00Z`), {
      outcome: 'failed',
      errorCode: 'no_face',
      renderMs: 900,
      at: Date.parse(`${DAY_A}T14:00:05Z`),
    });
    const end = {
      outcome: 'completed',
      errorCode: null,
      renderMs: 4000,
      at: Date.parse(`${DAY_B}T00:00:30Z`),
    } as const;
    const done = await recordJob(ledger, await covering(first), Date.parse(`${DAY_A}T23:50:00Z`), end);
    // A redelivered job ending again is not a second artwork.
    ledgerClock = end.at + 1000;
    await ledger.completed(done, 'delivery-1', artwork(end));
    at(`${DAY_B}T10:00:00Z`);
    await view('DE', 'de', '/de/de/start');
    await view('GB', 'en', '/gb/en/start');
    await event('GB', 'en', 'share');
    vi.useRealTimers();

    const both = await funnel(DAY_A, DAY_B);
    const de = { start_views: 4, answered_yes: 2, answered_no: 1, consented: 2, photo_views: 1, uploads: 2 };
    expect(both.rows).toEqual([
      row('de', 'de', { ...de, artworks: 1, downloads: 2, shares: 1 }),
      row('fr', 'fr', { start_views: 1, answered_no: 1 }),
      row('gb', 'en', { start_views: 1, shares: 1 }),
    ]);
    expect(both.totals).toEqual(
      counts({ ...de, start_views: 6, answered_no: 2, artworks: 1, downloads: 2, shares: 2 }),
    );
    expect(both.days).toEqual([
      { date: DAY_A, ...counts({ ...de, start_views: 4, answered_no: 2, downloads: 2, shares: 1 }) },
      { date: DAY_B, ...counts({ start_views: 2, artworks: 1, shares: 1 }) },
    ]);

    const dayA = await funnel(DAY_A, DAY_A);
    expect(dayA.rows).toEqual([
      row('de', 'de', { ...de, start_views: 3, downloads: 2, shares: 1 }),
      row('fr', 'fr', { start_views: 1, answered_no: 1 }),
    ]);
    const quiet = await funnel('2026-02-27', '2026-02-28');
    expect(quiet.rows).toEqual([]);
    expect(quiet.days).toEqual([
      { date: '2026-02-27', ...counts({}) },
      { date: '2026-02-28', ...counts({}) },
    ]);

    const csv = await adminGet(client, `${ADMIN_PATHS.funnelCsv}?from=${DAY_A}&to=${DAY_B}`, session);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="funnel-${DAY_A}-to-${DAY_B}.csv"`);
    expect(parseCsv(await csv.text())).toEqual([
      ['country_iso', 'language', ...FUNNEL_STEPS],
      ['de', 'de', '4', '2', '1', '2', '1', '2', '1', '2', '1'],
      ['fr', 'fr', '1', '0', '1', '0', '0', '0', '0', '0', '0'],
      ['gb', 'en', '1', '0', '0', '0', '0', '0', '0', '0', '1'],
    ]);
  });

  it('refuses a range that is not one, naming the field', async () => {
    const cases = {
      [`from=${DAY_B}&to=${DAY_A}`]: 'from',
      [`from=2026-3-1&to=${DAY_B}`]: 'from',
      [`from=${DAY_A}`]: 'to',
      'from=2024-01-01&to=2026-01-01': 'to',
    };
    for (const [query, field] of Object.entries(cases)) {
      for (const pathname of [ADMIN_PATHS.funnel, ADMIN_PATHS.funnelCsv, ADMIN_PATHS.consentExport]) {
        const response = await adminGet(client, `${pathname}?${query}`, session);
        expect(response.status, `${pathname}?${query}`).toBe(400);
        const body = (await response.json()) as { code: string; error: string };
        expect(body.code).toBe('invalidField');
        expect(body.error).toContain(`"${field}"`);
      }
    }
  });

  it('shows the queue and the jobs of the last 15 minutes live', async () => {
    const { backend } = server.app.services;
    const now = Date.now();
    const sessionId = await consent('DE', 'de', 'yes', true);
    const covering = (await backend.consents.coveringConsent(sessionId)) as ConsentRecord;
    const ends = [
      { outcome: 'completed', errorCode: null, renderMs: 300 },
      { outcome: 'completed', errorCode: null, renderMs: 100 },
      { outcome: 'completed', errorCode: null, renderMs: 200 },
      { outcome: 'failed', errorCode: 'too_dark', renderMs: 50 },
      { outcome: 'failed', errorCode: 'too_dark', renderMs: 60 },
      { outcome: 'failed', errorCode: 'render_failed', renderMs: null },
    ] as const;
    const ledger = await openLedger();
    // Ended before the window: not in the live figures.
    await recordJob(ledger, covering, now - 20 * 60_000, {
      outcome: 'failed',
      errorCode: 'no_face',
      renderMs: 9000,
      at: now - 16 * 60_000,
    });
    for (const end of ends) await recordJob(ledger, covering, now - 60_000, { ...end, at: now - 30_000 });

    const response = await adminGet(client, ADMIN_PATHS.live, session);
    const live = adminLiveSchema.parse(await response.json());
    expect(live).toMatchObject({
      queue_depth: 0,
      processing: 0,
      jobs_per_minute: 0.4,
      completed: 3,
      render_ms: { p50: 100, p95: 300 },
      window_minutes: 15,
    });
    expect(live.refusals).toMatchObject({ too_dark: 2, render_failed: 1, no_face: 0 });
  });

  it('counts downloads and shares keeping only the browser family, and refuses bad events', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    at('2026-04-10T08:00:00Z');
    await event('IT', 'it', 'download');
    vi.useRealTimers();
    const rows = await readRows(server, env, "SELECT * FROM analytics_events WHERE created_at LIKE '2026-04-10%'");
    expect(rows.map(({ id: _id, ...stored }) => stored)).toEqual([
      {
        event: 'download',
        country_iso: 'it',
        language: 'it',
        browser_family: 'Chrome',
        created_at: expect.any(String),
      },
    ]);
    expect((await funnel('2026-04-10', '2026-04-10')).rows).toEqual([row('it', 'it', { downloads: 1 })]);

    const good = { event: 'share', country_iso: 'DE', language: 'de', ip_address: null, user_agent: null };
    const bad = {
      event: { ...good, event: 'like' },
      ip_address: { ...good, ip_address: '203.0.113.9' },
      page_path: { ...good, page_path: '/de/de/result?token=x' },
      country_iso: { ...good, country_iso: 'XX' },
      language: { ...good, language: 'klingon' },
    };
    for (const [field, body] of Object.entries(bad)) {
      const response = await client.postJson('/api/analytics/event', body);
      expect(response.status, field).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalidField' });
    }
  });
});
