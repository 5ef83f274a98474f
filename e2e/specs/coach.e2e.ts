import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';
import { type CoachScene, coachVideo } from '../support/fixtures.js';
import { expectAccessible, reachCamera, snap } from '../support/flow.js';

async function copyOf(locale: string): Promise<{ photo: { coach: Record<string, string> } }> {
  return JSON.parse(await readFile(new URL(`../../apps/web/src/locales/${locale}.json`, import.meta.url), 'utf8'));
}

/** What each fake camera shows, the coaching it must get, and whether the photo is then taken by itself. */
const scenes: { scene: CoachScene; shows: string; advice: string }[] = [
  { scene: 'small', shows: 'a face far from the camera', advice: 'closer' },
  { scene: 'dark', shows: 'a face in the dark', advice: 'moreLight' },
  { scene: 'two', shows: 'two faces', advice: 'onlyYou' },
  { scene: 'good', shows: 'a well-placed face', advice: 'good' },
];

const markets = [
  { country: 'gb', locale: 'en', browserLocale: 'en-GB', dir: 'ltr' },
  { country: 'ae', locale: 'ae-ar', browserLocale: 'ar-AE', dir: 'rtl' },
];

describe('the camera coaches the visitor before the photo', () => {
  const open: Phone[] = [];
  afterAll(async () => {
    await Promise.all(open.map((phone) => phone.close()));
  });

  for (const { country, locale, browserLocale, dir } of markets) {
    for (const { scene, shows, advice } of scenes) {
      it(`${locale} (${dir}): ${shows} hears “${advice}”${advice === 'good' ? ' and the countdown starts by itself' : ', and no photo is taken'}`, async () => {
        const copy = await copyOf(locale);
        const baseURL = inject('baseURL');
        const phone = await openPhone({ baseURL, video: await coachVideo(scene), locale: browserLocale });
        open.push(phone);
        const { page } = phone;
        const foreign: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(baseURL) && !/^(data|blob):/.test(request.url())) foreign.push(request.url());
        });
        const workers: string[] = [];
        page.on('worker', (worker) => workers.push(worker.url()));

        await reachCamera(page, country, locale);
        expect(await page.locator('html').getAttribute('dir')).toBe(dir);
        await page.getByTestId('camera-allow').click();
        const message = page.getByTestId('coach-message');
        await expect.poll(() => message.textContent(), { timeout: 30_000 }).toBe(copy.photo.coach[advice]);
        // The ring says it too, by shape and icon as well as colour.
        await expect
          .poll(() => page.locator('.face-guide').getAttribute('class'))
          .toContain(advice === 'good' ? 'face-guide--good' : 'face-guide--adjust');
        // docs/screens/coach-<locale>-<scene>.png: every English state, and Arabic's first and last.
        // The good state lasts about a second before the countdown: pictured at once.
        if (locale === 'en' || scene === 'small' || scene === 'good') {
          await snap(page, 'coach', `${locale}-${scene}`, { settleMs: scene === 'good' ? 0 : 400 });
        }
        // The detector runs off the page's thread.
        expect(workers.some((url) => /detector\.worker/.test(url))).toBe(true);
        if (scene === 'small') await expectAccessible(page, 'photo (coaching)');

        if (advice === 'good') {
          // Nobody taps: after about a second of a good face the countdown runs and the photo is taken.
          await page.locator('.countdown').waitFor({ timeout: 10_000 });
          await page.getByTestId('photo-continue').waitFor({ timeout: 15_000 });
        } else {
          await page.waitForTimeout(2500);
          expect(await page.locator('.countdown').count()).toBe(0);
          expect(await page.getByTestId('photo-take').isEnabled()).toBe(true);
          expect(await message.textContent()).toBe(copy.photo.coach[advice]);
        }
        // The detector's code, model and WASM all come from our own origin.
        expect(foreign).toEqual([]);
        await phone.close();
        open.splice(open.indexOf(phone), 1);
      });
    }
  }

  it('keeps the plain circle and the button when the detector cannot load', async () => {
    const phone = await openPhone({ baseURL: inject('baseURL'), video: await coachVideo('good') });
    open.push(phone);
    const { page } = phone;
    await page.route('**/assets/face-guide-*/**', (route) => route.abort());
    await reachCamera(page, 'gb', 'en');
    await page.getByTestId('camera-allow').click();
    await expect.poll(() => page.getByTestId('photo-take').isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(4000);
    // No coaching, no countdown by itself: today's screen, and the button takes the photo.
    expect(await page.getByTestId('coach-message').count()).toBe(0);
    expect(await page.locator('.face-guide').getAttribute('class')).toBe('face-guide');
    expect(await page.locator('.countdown').count()).toBe(0);
    await page.getByTestId('photo-take').click();
    await page.getByTestId('photo-continue').waitFor({ timeout: 15_000 });
  });
});
