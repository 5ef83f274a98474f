import { readFile } from 'node:fs/promises';
import { ARTWORK, STORY_ARTWORK, screenPath } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';
import { expectAccessible, holdQueueUpdates, reachCamera, snap, takePhoto, waitForArtwork } from '../support/flow.js';

describe('a visitor in Germany, from the age gate to the downloaded artwork', () => {
  let phone: Phone;
  const pageviews: string[] = [];

  beforeAll(async () => {
    phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), locale: 'de-DE' });
    phone.page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/pageview'))
        pageviews.push(JSON.parse(request.postData() ?? '{}').page_path);
    });
  });
  afterAll(() => phone.close());

  it(`goes through every screen and saves a ${ARTWORK.width}×${ARTWORK.height} mosaic and its ${STORY_ARTWORK.width}×${STORY_ARTWORK.height} story version`, async () => {
    const { page } = phone;
    await page.goto('/de/de/start');
    await expect
      .poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]))
      .toEqual(['de', 'ltr']);
    await expect.poll(() => page.title()).toMatch(/IQOS Mosaic$/);
    await expectAccessible(page, 'start');

    await reachCamera(page, 'de', 'de');
    await expectAccessible(page, 'photo');
    await takePhoto(page);
    await expectAccessible(page, 'review');
    const release = await holdQueueUpdates(page);
    await page.getByTestId('photo-continue').click();
    await page.waitForURL('**/de/de/result');
    await page.locator('[aria-busy="true"]').waitFor();
    await expectAccessible(page, 'result (creating)');
    await release();
    await waitForArtwork(page);
    await expectAccessible(page, 'result (done)');

    const [download, counted] = await Promise.all([
      page.waitForEvent('download'),
      page.waitForResponse((response) => response.url().endsWith('/api/analytics/event')),
      page.getByTestId('result-download').click(),
    ]);
    // The download is the funnel's last-but-one step, counted like a page view.
    expect(counted.status()).toBe(204);
    expect(JSON.parse(counted.request().postData() ?? '{}')).toMatchObject({
      event: 'download',
      country_iso: 'de',
      language: 'de',
      ip_address: null,
    });
    const saved = await download.path();
    const metadata = await sharp(await readFile(saved)).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: 'jpeg',
      width: ARTWORK.width,
      height: ARTWORK.height,
    });

    // The story version: chosen with the format switch, shown, then downloaded the same way.
    await page.getByTestId('format-story').check();
    const preview = page.getByTestId('artwork');
    await expect.poll(() => preview.getAttribute('src')).toMatch(/\.story\.jpg$/);
    await preview.evaluate((img: HTMLImageElement) => img.decode());
    expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
      STORY_ARTWORK.width,
      STORY_ARTWORK.height,
    ]);
    const [storyDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('result-download').click(),
    ]);
    expect(storyDownload.suggestedFilename()).toMatch(/-story\.jpg$/);
    const story = await sharp(await readFile(await storyDownload.path())).metadata();
    expect({ format: story.format, width: story.width, height: story.height }).toEqual({
      format: 'jpeg',
      width: STORY_ARTWORK.width,
      height: STORY_ARTWORK.height,
    });
    expect(pageviews).toEqual(
      expect.arrayContaining(['/de/de/start', '/de/de/curious', '/de/de/photo', '/de/de/result']),
    );
  });
});

describe('every screen in English, in Emirati Arabic and in Georgian on the narrowest phone', () => {
  for (const [country, locale, lang, dir, width] of [
    ['gb', 'en', 'en', 'ltr', 390],
    ['ae', 'ae-ar', 'ar-AE', 'rtl', 390],
    ['ge', 'ka', 'ka', 'ltr', 360],
  ] as const) {
    it(`${locale}: ${dir}, accessible at ${width} px, and every screen pictured`, async () => {
      const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), width });
      try {
        const { page } = phone;
        await page.goto(screenPath(country, locale, 'start'));
        await expect
          .poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]))
          .toEqual([lang, dir]);
        await snap(page, locale, '1-start');
        await page.getByTestId('age-no').click();
        await page.waitForURL(`**${screenPath(country, locale, 'exit')}`);
        await expectAccessible(page, 'exit');
        await snap(page, locale, '2-exit');

        await page.goto(screenPath(country, locale, 'terms'));
        await expectAccessible(page, 'terms');
        await snap(page, locale, '4-terms');

        await page.goto(screenPath(country, locale, 'start'));
        await page.getByTestId('age-yes').click();
        await page.waitForURL(`**${screenPath(country, locale, 'curious')}`);
        await expectAccessible(page, 'curious');
        await snap(page, locale, '3-curious');
        await page.getByTestId('consent-checkbox').check();
        await page.getByTestId('consent-continue').click();
        await page.waitForURL(`**${screenPath(country, locale, 'photo')}`);
        await snap(page, locale, '5-photo-permission');
        await page.getByTestId('camera-allow').click();
        await page.getByTestId('photo-take').waitFor();
        await expect.poll(() => page.getByTestId('photo-take').isEnabled(), { timeout: 15_000 }).toBe(true);
        await snap(page, locale, '6-photo-position');
        await page.getByTestId('photo-take').click();
        await snap(page, locale, '7-photo-get-ready');
        await page.getByTestId('photo-continue').waitFor({ timeout: 15_000 });
        await snap(page, locale, '8-photo-review');
        const release = await holdQueueUpdates(page);
        await page.getByTestId('photo-continue').click();
        await page.waitForURL(`**${screenPath(country, locale, 'result')}`);
        await page.locator('[aria-busy="true"]').waitFor();
        await snap(page, locale, '9-result-creating');
        await release();
        await waitForArtwork(page);
        await page.locator('[data-testid="artwork"]').evaluate((img: HTMLImageElement) => img.decode());
        await snap(page, locale, '10-result-done');
        await page.getByTestId('format-story').check();
        await page
          .locator('[data-testid="artwork"][src$=".story.jpg"]')
          .evaluate((img: HTMLImageElement) => img.decode());
        await expectAccessible(page, 'result (story)');
        await snap(page, locale, '10-result-done-story');

        await page.goto(screenPath(country, locale, 'download'));
        await page.getByTestId('download-button').waitFor();
        await expectAccessible(page, 'download');
        await snap(page, locale, '11-download');

        await page.goto(screenPath(country, locale, 'no-such-page'));
        await snap(page, locale, '12-not-found');
      } finally {
        await phone.close();
      }
    });
  }
});
