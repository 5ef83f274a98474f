import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { consentExportRecordSchema, FUNNEL_STEPS, screenPath } from '@selfie-mosaic/contract';
import { type Browser, type BrowserContext, chromium, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/browser.js';
import { expectAccessible, snapPage } from '../support/flow.js';
import { type RunningServer, startServer } from '../support/server-process.js';
import { queueOtherVisitors } from '../support/visitors.js';

/**
 * The operators' dashboard on a server with ADMIN_TOKEN: sign-in, the live queue and the funnel moving
 * while visitors' photos are rendered, the CSV, axe, laptop and phones; and the chunks it keeps away
 * from the visitors' start screen.
 */

const TOKEN = randomBytes(18).toString('base64url');
/**
 * Visitors uploading at once, each lane one after another, to one render thread: a backlog of some
 * 40 × 0.25 s, longer than the live panel's 5 s between refreshes, so one of them must see it.
 */
const LANES = 8;
const UPLOADS = LANES * 5;
const LAPTOP = { width: 1280, height: 800 };

/** The dashboard's chunks (its code and Chart.js), by the build's manifest. */
async function adminChunks(): Promise<string[]> {
  const manifest = JSON.parse(
    await readFile(new URL('../../apps/web/dist/.vite/manifest.json', import.meta.url), 'utf8'),
  ) as Record<string, { file: string; css?: string[] }>;
  const chunks = Object.entries(manifest)
    .filter(([source]) => source.startsWith('src/features/admin/'))
    .flatMap(([, chunk]) => [chunk.file, ...(chunk.css ?? [])]);
  expect(chunks.length, 'the build has the admin chunks').toBeGreaterThanOrEqual(3);
  return chunks;
}

/** Every same-origin path the page requests from now on. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

async function signIn(page: Page, token: string) {
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function figure(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).textContent())?.replace(/[^\d.]/g, '') || Number.NaN);
}

async function totalOf(page: Page, step: (typeof FUNNEL_STEPS)[number]): Promise<number> {
  const text = await page.getByTestId('funnel-totals').locator(`[data-step="${step}"] .admin-figure`).textContent();
  return Number(text?.replace(/\D/g, ''));
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const [scroll, width] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll, `${what}: page width ${scroll} in a ${width} px viewport`).toBeLessThanOrEqual(width);
}

describe('the operators’ dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let laptop: BrowserContext;

  beforeAll(async () => {
    server = await startServer({
      ADMIN_TOKEN: TOKEN,
      WORKERS: '1',
      RATE_LIMIT_UPLOAD: '1000',
      RATE_LIMIT_CONSENT: '1000',
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
    laptop = await browser.newContext({
      viewport: LAPTOP,
      baseURL: server.url,
      locale: 'en-GB',
      acceptDownloads: true,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('stays out of the visitor’s start screen, which loads none of its code', async () => {
    const chunks = await adminChunks();
    const page = await laptop.newPage();
    const requested = recordRequests(page);
    await page.goto(screenPath('gb', 'en', 'start'));
    await page.getByTestId('age-yes').waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((path) => chunks.some((chunk) => path.endsWith(chunk)))).toEqual([]);
    // This visitor answers yes too: the funnel below counts them.
    await page.getByTestId('age-yes').click();
    await page.waitForURL(`**${screenPath('gb', 'en', 'curious')}`);

    // The same record on /admin does see them, so the check above can fail.
    await page.goto('/admin');
    await page.getByLabel('Operator token').waitFor();
    expect(requested.some((path) => chunks.some((chunk) => path.endsWith(chunk)))).toBe(true);
    await page.close();
  });

  it('refuses a wrong token, then signs in and watches the queue and the funnel move as photos are rendered', async () => {
    const page = await laptop.newPage();
    const response = await page.goto('/admin');
    expect(response?.status()).toBe(200);
    await expect
      .poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]))
      .toEqual(['en', 'ltr']);
    await page.getByLabel('Operator token').waitFor();
    await expectAccessible(page, 'admin sign-in');
    await snapPage(page, 'admin-signin');

    await signIn(page, `${TOKEN}x`);
    await expect
      .poll(() => page.getByTestId('admin-signin-error').textContent())
      .toBe('Please sign in with the operator token.');
    await expectAccessible(page, 'admin sign-in with an error');

    await signIn(page, TOKEN);
    await page.getByRole('heading', { level: 1, name: 'Campaign dashboard' }).waitFor();
    await expect.poll(() => page.getByTestId('live-updated').textContent()).toMatch(/^Updated \d\d:\d\d:\d\d UTC/);
    expect(await figure(page, 'live-completed')).toBe(0);

    // Other visitors upload while the operator watches: the queue fills, then drains into artworks.
    const busy: number[] = [];
    const watching = (async () => {
      const until = Date.now() + 90_000;
      while (Date.now() < until && (await figure(page, 'live-completed')) < UPLOADS) {
        busy.push((await figure(page, 'live-queue')) + (await figure(page, 'live-processing')));
        await page.waitForTimeout(250);
      }
    })();
    await Promise.all(Array.from({ length: LANES }, () => queueOtherVisitors(server.url, UPLOADS / LANES)));
    await watching;
    expect(await figure(page, 'live-completed')).toBe(UPLOADS);
    expect(Math.max(...busy), 'queued or processing jobs seen on the live panel').toBeGreaterThan(0);
    expect(await page.getByTestId('live-p50').textContent()).toMatch(/^\d[\d.,]* (ms|s)$/);

    // The funnel counts them once asked again ("Show" reloads the same days).
    await page.getByTestId('range-show').click();
    await expect.poll(() => totalOf(page, 'uploads')).toBe(UPLOADS);
    expect(await totalOf(page, 'consented')).toBe(UPLOADS);
    expect(await totalOf(page, 'artworks')).toBe(UPLOADS);
    // Each of them viewed the start and photo screens and said yes; so did the visitor of the first test.
    expect(await totalOf(page, 'start_views')).toBe(UPLOADS + 1);
    expect(await totalOf(page, 'answered_yes')).toBe(UPLOADS + 1);
    expect(await totalOf(page, 'photo_views')).toBe(UPLOADS);
    await page.getByTestId('funnel-row-gb-en').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('funnel-csv').click()]);
    const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
    expect(csv[0]).toBe(['country_iso', 'language', ...FUNNEL_STEPS].join(','));
    const gb = csv.find((line) => line.startsWith('gb,en,'))?.split(',') ?? [];
    expect(Number(gb[2 + FUNNEL_STEPS.indexOf('uploads')])).toBe(UPLOADS);
    expect(Number(gb[2 + FUNNEL_STEPS.indexOf('artworks')])).toBe(UPLOADS);

    // The regulator export of the same range: one consent a visitor, each covering its one job.
    const [ndjson] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-ndjson').click()]);
    const records = (await readFile(await ndjson.path(), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => consentExportRecordSchema.parse(JSON.parse(line)));
    expect(records).toHaveLength(UPLOADS);
    expect(records.every((record) => record.jobs.length === 1 && record.country_iso === 'gb')).toBe(true);

    await expectAccessible(page, 'admin dashboard');
    await expectNoSidewaysScroll(page, 'laptop');
    // Chart.js sizes the canvas to its box once it has drawn.
    await page.waitForFunction(
      () => document.querySelector<HTMLCanvasElement>('[data-testid="chart-funnel"]')?.style.width,
    );
    await snapPage(page, 'admin-dashboard', { fullPage: true });
    await page.close();
  });

  for (const [name, viewport] of [
    ['a Pixel 7', devices['Pixel 7'].viewport],
    ['a 360 px phone', { width: 360, height: 780 }],
  ] as const) {
    it(`works on ${name} without sideways scrolling, and signs out`, async () => {
      const phone = await browser.newContext({ ...devices['Pixel 7'], viewport, baseURL: server.url, locale: 'en-GB' });
      try {
        const page = await phone.newPage();
        await page.goto('/admin');
        await signIn(page, TOKEN);
        await page.getByTestId('funnel-row-gb-en').waitFor();
        await page.waitForFunction(
          () => document.querySelector<HTMLCanvasElement>('[data-testid="chart-days"]')?.style.width,
        );
        await expectNoSidewaysScroll(page, name);
        await expectAccessible(page, `admin dashboard on ${name}`);
        if (viewport.width === 360) await snapPage(page, 'admin-phone', { fullPage: true });

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByLabel('Operator token').waitFor();
        await page.reload();
        await page.getByLabel('Operator token').waitFor();
      } finally {
        await phone.close();
      }
    });
  }
});

describe('a server without ADMIN_TOKEN', () => {
  it('answers /admin with the 404 page and never shows the sign-in form', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage({ baseURL: inject('baseURL'), locale: 'en-GB' });
      const response = await page.goto('/admin');
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Page Not Found' }).waitFor();
      expect(await page.getByLabel('Operator token').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
