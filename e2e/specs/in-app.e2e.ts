import { readFile } from 'node:fs/promises';
import { screenPath } from '@selfie-mosaic/contract';
import { chromium, devices, type Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/browser.js';
import { facePhoto } from '../support/fixtures.js';
import { expectAccessible, reachCamera, snapPage, waitForArtwork } from '../support/flow.js';
import { queueOtherVisitors } from '../support/visitors.js';

const copyOf = async (locale: string) =>
  JSON.parse(await readFile(new URL(`../../apps/web/src/locales/${locale}.json`, import.meta.url), 'utf8'));
const en = await copyOf('en');

const INSTAGRAM_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ2A.230505.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36 Instagram 291.0.0.31.111 Android (33/13; 420dpi; 1080x2400; Google; Pixel 7; panther; panther; en_GB; 493450264)';
const FACEBOOK_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]';

/** A phone whose browser says it is the given one; `script` runs in the page before the app does. */
async function openInApp(userAgent: string, options: { script?: string; locale?: string } = {}) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    userAgent,
    baseURL: inject('baseURL'),
    locale: options.locale ?? 'en-GB',
  });
  if (options.script) await context.addInitScript(options.script);
  const page = await context.newPage();
  return { page, close: () => browser.close() };
}

const choice = (page: Page) => page.getByRole('region', { name: en.photo.inApp.title });

describe('in-app browsers', () => {
  it('Instagram on Android: "open in your browser" beside the file picker, and a photo from the gallery makes the artwork', async () => {
    const { page, close } = await openInApp(INSTAGRAM_ANDROID);
    try {
      await reachCamera(page, 'gb', 'en');
      await choice(page).waitFor();
      const href = await choice(page).getByRole('link', { name: en.photo.inApp.openButton }).getAttribute('href');
      const here = new URL(page.url());
      expect(href).toBe(
        `intent://${here.host}/gb/en/photo#Intent;scheme=http;action=android.intent.action.VIEW;` +
          `S.browser_fallback_url=${encodeURIComponent(here.href)};end`,
      );
      expect(await page.getByText(en.photo.noCameraInApp).isVisible()).toBe(true);
      expect(await page.getByTestId('camera-allow').count()).toBe(0);
      await expectAccessible(page, 'in-app photo (Android)');
      await snapPage(page, 'inapp-android', { fullPage: true });

      await page.getByTestId('file-picker').setInputFiles(await facePhoto());
      // Other visitors' photos ahead of ours: the waiting screen shows its position and time estimate.
      await queueOtherVisitors(inject('baseURL'), 12);
      await page.getByTestId('photo-continue').click();
      await page.waitForURL('**/gb/en/result');
      const eta = page.getByTestId('queue-eta');
      await eta.waitFor({ timeout: 15_000 });
      expect(await eta.textContent()).toMatch(
        /^Your image will be ready in (a few seconds|about \d+ (seconds|minutes?))\.$/,
      );
      await snapPage(page, 'queue-eta', { fullPage: true });
      await waitForArtwork(page);
    } finally {
      await close();
    }
  });

  for (const [country, locale, name] of [
    ['gb', 'en', 'inapp-ios'],
    ['ae', 'ae-ar', 'inapp-ios-ae-ar'],
  ] as const) {
    it(`Facebook on iOS (${locale}): a picture of the app's menu with the two steps, no link`, async () => {
      const copy = await copyOf(locale);
      const { page, close } = await openInApp(FACEBOOK_IOS);
      try {
        await reachCamera(page, country, locale);
        const region = page.getByRole('region', { name: copy.photo.inApp.title });
        await region.waitFor();
        expect(await region.getByRole('img', { name: copy.photo.inApp.illustration }).isVisible()).toBe(true);
        expect(await region.getByRole('listitem').allTextContents()).toEqual([
          copy.photo.inApp.iosStepMenu,
          copy.photo.inApp.iosStepOpen,
        ]);
        expect(await region.getByRole('link').count()).toBe(0);
        expect(await page.getByTestId('file-picker').count()).toBe(1);
        await expectAccessible(page, `in-app photo (iOS, ${locale})`);
        await snapPage(page, name, { fullPage: true });
      } finally {
        await close();
      }
    });
  }

  it('a camera request that never answers turns into the same choice after 10 s', async () => {
    const chrome = devices['Pixel 7'].userAgent;
    const { page, close } = await openInApp(chrome, {
      // A webview we do not recognise: getUserMedia exists, and its promise never settles.
      script: 'navigator.mediaDevices.getUserMedia = () => new Promise(() => {});',
    });
    try {
      await reachCamera(page, 'gb', 'en');
      expect(await choice(page).count()).toBe(0);
      await page.getByTestId('camera-allow').click();
      await choice(page).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('alert').textContent()).toBe(en.photo.inApp.timeout);
      expect(await choice(page).getByRole('link', { name: en.photo.inApp.openButton }).count()).toBe(1);
      expect(await page.getByTestId('file-picker').count()).toBe(1);
      expect(await page.getByTestId('camera-retry').isVisible()).toBe(true);
      expect(page.url()).toContain(screenPath('gb', 'en', 'photo'));
      await snapPage(page, 'inapp-timeout', { fullPage: true });
    } finally {
      await close();
    }
  });
});
