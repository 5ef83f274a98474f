import { readFile } from 'node:fs/promises';
import { HANDOFF, normalizeHandoffToken, screenPath } from '@selfie-mosaic/contract';
import jsqr from 'jsqr';
import type { Locator, Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDesktop, openPhone, type Phone } from '../support/browser.js';
import { facePhoto } from '../support/fixtures.js';
import { expectAccessible, reachCamera, snapPage, takePhoto, waitForArtwork } from '../support/flow.js';
import { type RunningServer, startServer } from '../support/server-process.js';

const copyOf = async (locale: string) =>
  JSON.parse(await readFile(new URL(`../../apps/web/src/locales/${locale}.json`, import.meta.url), 'utf8'));
const copy: Record<string, { handoff: Record<string, string> }> = {
  en: await copyOf('en'),
  'ae-ar': await copyOf('ae-ar'),
};

type Decode = typeof jsqr.default;
/** The package is CommonJS with an ES default: Node hands over its exports object, vitest the function itself. */
const jsQR: Decode = (jsqr as unknown as { default?: Decode }).default ?? (jsqr as unknown as Decode);

/** Counts the page's camera requests, so a test can tell the camera was never asked for. */
const COUNT_CAMERA_REQUESTS = `
  window.cameraRequests = 0;
  const devices = navigator.mediaDevices;
  if (devices && devices.getUserMedia) {
    const open = devices.getUserMedia.bind(devices);
    devices.getUserMedia = (constraints) => { window.cameraRequests += 1; return open(constraints); };
  }
`;

/** Reads the QR code the screen shows, as a phone's camera would: from a picture of it. */
async function scanCode(code: Locator): Promise<string> {
  await code.waitFor({ timeout: 15_000 });
  const { data, info } = await sharp(await code.screenshot())
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!found) throw new Error('no QR code could be read from the screen');
  return found.data;
}

async function openPhoneAt(
  url: string,
  locale = 'en-GB',
  beforeConfirm?: (page: Page) => Promise<void>,
): Promise<Phone> {
  const phone = await openPhone({ baseURL: new URL(url).origin, video: inject('faceVideo'), locale });
  await phone.context.addInitScript(COUNT_CAMERA_REQUESTS);
  await phone.page.goto(url);
  // Nothing is taken over until the visitor says so on the phone.
  await phone.page.getByTestId('continue-confirm').waitFor();
  await beforeConfirm?.(phone.page);
  await phone.page.getByTestId('continue-confirm').click();
  return phone;
}

/** A phone that opened a code that no longer works: the message in its language, a way to the age gate, no camera. */
async function expectRefused(phone: Phone, locale: string, country: string): Promise<void> {
  const { page } = phone;
  const text = copy[locale]?.handoff;
  if (!text) throw new Error(`no copy for ${locale}`);
  await page.getByRole('heading', { name: text.invalidHeading }).waitFor({ timeout: 15_000 });
  expect(await page.getByTestId('camera-allow').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { cameraRequests: number }).cameraRequests)).toBe(0);
  expect(page.url()).not.toContain('#');
  await page.getByTestId('continue-start').click();
  await page.waitForURL(`**${screenPath(country, locale, 'start')}`);
}

describe('desktop to phone: the visit goes on on the phone, and both screens follow the job', () => {
  let desktop: Phone;
  const phones: Phone[] = [];

  beforeAll(async () => {
    desktop = await openDesktop({ baseURL: inject('baseURL'), video: inject('faceVideo') });
  });
  afterAll(async () => {
    await Promise.all([desktop.close(), ...phones.map((phone) => phone.close())]);
  });

  it('a desktop without a camera shows a code; the phone that scans it takes the selfie; both show the artwork', async () => {
    const { page } = desktop;
    await reachCamera(page, 'gb', 'en');
    const url = await scanCode(page.getByTestId('handoff-qr'));
    expect(url).toMatch(new RegExp(`^${inject('baseURL')}/gb/en/continue#`));
    const token = normalizeHandoffToken(new URL(url).hash.slice(1));
    expect(token).not.toBeNull();
    // The link to type is the same one the code carries.
    expect((await page.getByTestId('handoff-link').textContent())?.trim()).toBe(url.replace(/^https?:\/\//, ''));
    await expect
      .poll(() =>
        page
          .getByText(copy.en?.handoff.validity_other?.replace('{{count}}', String(HANDOFF.claimMs / 60_000)) ?? '')
          .count(),
      )
      .toBe(1);
    await expectAccessible(page, 'desktop photo with the phone offered');
    await snapPage(page, 'handoff-desktop-en');

    const phone = await openPhoneAt(url, 'en-GB', async (page) => {
      await expectAccessible(page, 'continue (asking)');
      await snapPage(page, 'handoff-phone-confirm-en');
    });
    phones.push(phone);
    // No age gate, no terms: straight to the photo step of the same market and language.
    await phone.page.waitForURL('**/gb/en/photo');
    expect(phone.page.url()).not.toContain('#');
    await page.getByRole('heading', { name: copy.en?.handoff.connectedHeading }).waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'desktop with the phone connected');
    await snapPage(page, 'handoff-desktop-connected-en');

    // The phone's photo is held on its way so the desktop can be seen saying so.
    const held: Route[] = [];
    await phone.page.route('**/api/upload', (route) => {
      held.push(route);
    });
    await takePhoto(phone.page);
    await phone.page.getByTestId('photo-continue').click();
    await page.getByRole('heading', { name: copy.en?.handoff.uploadingHeading }).waitFor({ timeout: 15_000 });
    await snapPage(page, 'handoff-desktop-uploading-en');
    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    await phone.page.unroute('**/api/upload');

    await phone.page.waitForURL('**/gb/en/result');
    await page.waitForURL('**/gb/en/result', { timeout: 15_000 });
    await Promise.all([waitForArtwork(page), waitForArtwork(phone.page)]);
    // One artwork on both screens, and the desktop can download it.
    const [onDesktop, onPhone] = await Promise.all(
      [page, phone.page].map((p) => p.getByTestId('artwork').getAttribute('src')),
    );
    expect(onDesktop).toBe(onPhone);
    expect(await page.getByTestId('result-download').isVisible()).toBe(true);
    // The visitor has it on the phone already: the desktop does not offer the code for it.
    expect(await page.getByTestId('handoff-qr').count()).toBe(0);
    await expectAccessible(page, 'desktop result after the phone');
    await snapPage(page, 'handoff-desktop-result-en', { fullPage: true });

    // The same code again, on another phone: refused, with the way back to the age gate.
    const again = await openPhoneAt(url);
    phones.push(again);
    await expectRefused(again, 'en', 'gb');
  });

  it('a forged code gets the same clear message and never the camera', async () => {
    const forged = `${inject('baseURL')}/gb/en/continue#${'K7M2'.repeat(7)}`;
    const phone = await openPhoneAt(forged);
    phones.push(phone);
    await expectAccessible(phone.page, 'continue (refused)');
    await snapPage(phone.page, 'handoff-phone-refused-en');
    await expectRefused(phone, 'en', 'gb');
  });

  it('in Arabic (ae-ar), right to left: the code, the phone on the photo step, and a refused code', async () => {
    const arabic = await openDesktop({ baseURL: inject('baseURL'), video: inject('faceVideo'), locale: 'ar-AE' });
    try {
      const { page } = arabic;
      await reachCamera(page, 'ae', 'ae-ar');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      const url = await scanCode(page.getByTestId('handoff-qr'));
      expect(url).toMatch(/\/ae\/ae-ar\/continue#/);
      await expectAccessible(page, 'desktop photo with the phone offered (ae-ar)');
      await snapPage(page, 'handoff-desktop-ae-ar');
      const phone = await openPhoneAt(url, 'ar-AE', async (page) => {
        await expectAccessible(page, 'continue (asking, ae-ar)');
        await snapPage(page, 'handoff-phone-confirm-ae-ar');
      });
      phones.push(phone);
      await phone.page.waitForURL('**/ae/ae-ar/photo');
      expect(await phone.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.getByRole('heading', { name: copy['ae-ar']?.handoff.connectedHeading }).waitFor({ timeout: 15_000 });
      await snapPage(page, 'handoff-desktop-connected-ae-ar');
      const again = await openPhoneAt(url, 'ar-AE');
      phones.push(again);
      await expectAccessible(again.page, 'continue (refused, ae-ar)');
      await snapPage(again.page, 'handoff-phone-refused-ae-ar');
      await expectRefused(again, 'ae-ar', 'ae');
    } finally {
      await arabic.close();
    }
  });

  it('a desktop that made its artwork itself offers a code that opens it on the phone', async () => {
    const own = await openDesktop({ baseURL: inject('baseURL'), video: inject('faceVideo') });
    try {
      const { page } = own;
      await reachCamera(page, 'gb', 'en');
      // No camera here: asking for it says so and offers the file picker.
      await page.getByTestId('camera-allow').click();
      await page.getByTestId('file-picker').setInputFiles(await facePhoto());
      await page.getByTestId('photo-continue').click();
      await page.waitForURL('**/gb/en/result');
      await waitForArtwork(page);
      const url = await scanCode(page.getByTestId('handoff-qr'));
      await expectAccessible(page, 'desktop result with the code for the phone');
      await snapPage(page, 'handoff-desktop-artwork-code-en', { fullPage: true });
      const phone = await openPhoneAt(url);
      phones.push(phone);
      await phone.page.waitForURL('**/gb/en/result');
      await waitForArtwork(phone.page);
      expect(await phone.page.getByTestId('artwork').getAttribute('src')).toBe(
        await page.getByTestId('artwork').getAttribute('src'),
      );
      await page.getByText(copy.en?.handoff.artworkOpened ?? '').waitFor({ timeout: 15_000 });
      await expectAccessible(page, 'desktop result with the artwork on the phone');
      await snapPage(page, 'handoff-desktop-artwork-opened-en', { fullPage: true });
    } finally {
      await own.close();
    }
  });
});

describe('an expired code', () => {
  let server: RunningServer;
  let desktop: Phone;
  let phone: Phone | undefined;

  beforeAll(async () => {
    // A server whose codes last two seconds, so one can run out during the test.
    server = await startServer({ HANDOFF_TTL: '2', WARM_UP_RENDERS: '0' });
    desktop = await openDesktop({ baseURL: server.url, video: inject('faceVideo') });
  });
  afterAll(async () => {
    await Promise.all([desktop.close(), phone?.close()]);
    await server.stop();
  });

  it('is refused on the phone, and the desktop offers a new code', async () => {
    const { page } = desktop;
    await reachCamera(page, 'gb', 'en');
    const url = await scanCode(page.getByTestId('handoff-qr'));
    await page.getByText(copy.en?.handoff.expired ?? '').waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'desktop with a code that ran out');
    await snapPage(page, 'handoff-desktop-expired-en');
    phone = await openPhoneAt(url);
    await expectRefused(phone, 'en', 'gb');
    await page.getByTestId('handoff-new-code').click();
    const fresh = await scanCode(page.getByTestId('handoff-qr'));
    expect(fresh).not.toBe(url);
  });
});
