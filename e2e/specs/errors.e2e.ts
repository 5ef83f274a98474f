import { readFile } from 'node:fs/promises';
import { API_ERRORS } from '@selfie-mosaic/contract';
import type { Request } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPhone } from '../support/browser.js';
import { reachCamera, snap, takePhoto } from '../support/flow.js';

const copyOf = async (locale: string) =>
  JSON.parse(await readFile(new URL(`../../apps/web/src/locales/${locale}.json`, import.meta.url), 'utf8')) as {
    errors: Record<string, string>;
  };

/**
 * The upload's multipart body with the photo's bytes swapped for plain text: the camera's JPEG still
 * goes through the app, and the server itself must see that the file is no image.
 */
function withTextInsteadOfPhoto(request: Request): Buffer {
  const body = request.postDataBuffer();
  const boundary = /boundary=(.+)$/.exec(request.headers()['content-type'] ?? '')?.[1];
  if (!body || !boundary) throw new Error('the upload is not a multipart form');
  const text = body.toString('latin1');
  const header = text.indexOf('name="photo"');
  const start = text.indexOf('\r\n\r\n', header) + 4;
  const end = text.indexOf(`\r\n--${boundary}`, start);
  expect(header > 0 && end > start, 'the upload carries a photo part').toBe(true);
  return Buffer.from(`${text.slice(0, start)}This is a text file, not a photo.${text.slice(end)}`, 'latin1');
}

describe('a refused upload, in the visitor’s language', () => {
  for (const { country, locale, dir } of [
    { country: 'de', locale: 'de', dir: 'ltr' },
    { country: 'ae', locale: 'ae-ar', dir: 'rtl' },
  ] as const) {
    it(`shows the server's 415 in ${locale} (${dir})`, async () => {
      const copy = await copyOf(locale);
      const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo') });
      const { page } = phone;
      try {
        await page.route('**/api/upload', (route) =>
          route.continue({ postData: withTextInsteadOfPhoto(route.request()) }),
        );
        await reachCamera(page, country, locale);
        await takePhoto(page);
        const answer = page.waitForResponse('**/api/upload');
        await page.getByTestId('photo-continue').click();
        const response = await answer;
        expect(response.status()).toBe(415);
        expect(await response.json()).toEqual({ error: API_ERRORS.unsupportedMedia.message, code: 'unsupportedMedia' });

        const alert = page.getByRole('alert').filter({ hasText: /\S/ });
        await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toBe(copy.errors.unsupportedMedia);
        expect(copy.errors.unsupportedMedia).not.toBe(API_ERRORS.unsupportedMedia.message);
        expect(await page.locator('html').getAttribute('dir')).toBe(dir);
        expect(await page.locator('html').getAttribute('lang')).toMatch(new RegExp(`^${locale.slice(-2)}`));
        // The visitor can try again with the same photo or take another one.
        expect(await page.getByTestId('photo-continue').isVisible()).toBe(true);
        expect(await page.getByTestId('photo-redo').isVisible()).toBe(true);
        await snap(page, locale, 'upload-refused');
      } finally {
        await phone.close();
      }
    });
  }
});

/** The same upload from a session the server has no consent for (expired, or the store was reset). */
function fromAnotherSession(request: Request): Buffer {
  const body = request.postDataBuffer()?.toString('latin1') ?? '';
  const changed = body.replace(/session-\d+-[a-z0-9]+/i, 'session-1700000000000-noconsent');
  expect(changed, 'the upload carries its session id').not.toBe(body);
  return Buffer.from(changed, 'latin1');
}

describe('an upload whose consent the server does not have', () => {
  it('says so in the visitor’s language and starts over at the age gate', async () => {
    const copy = await copyOf('ae-ar');
    const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo') });
    const { page } = phone;
    try {
      await page.route('**/api/upload', (route) => route.continue({ postData: fromAnotherSession(route.request()) }));
      await reachCamera(page, 'ae', 'ae-ar');
      await takePhoto(page);
      const answer = page.waitForResponse('**/api/upload');
      await page.getByTestId('photo-continue').click();
      expect((await answer).status()).toBe(403);
      const alert = page.getByRole('alert').filter({ hasText: /\S/ });
      await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toBe(copy.errors.noConsent);
      // Sending the same photo again cannot help: the only way on is to accept the terms again.
      expect(await page.getByTestId('photo-continue').count()).toBe(0);
      await page.getByTestId('photo-start-over').click();
      await page.waitForURL('**/ae/ae-ar/start');
      const saved = await page.evaluate(() => Object.values({ ...localStorage }).join(' '));
      expect(saved).not.toContain('"consentGiven":true');
    } finally {
      await phone.close();
    }
  });
});
