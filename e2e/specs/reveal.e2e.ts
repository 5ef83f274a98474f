import { screenPath } from '@selfie-mosaic/contract';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';
import { expectAccessible, reachCamera, snap, storedSession, takePhoto, waitForRevealEnd } from '../support/flow.js';

/**
 * The reveal on the result screen: the artwork laid tessera by tessera on its campaign frame, ending
 * on the artwork's own pixels; skipped with a tap or the Skip button; never under reduced motion.
 */

interface RevealLog {
  seen: boolean;
  states: string[];
  /** The laid canvas as the reveal left it (a PNG data URL), and what was left in flight. */
  final: string | null;
  flyingAlpha: number | null;
}

declare global {
  interface Window {
    revealLog: RevealLog;
  }
}

/** Watches the page for the reveal from its first moment, and keeps its canvases' last pixels when it goes. */
function watchReveal() {
  const log: RevealLog = { seen: false, states: [], final: null, flyingAlpha: null };
  window.revealLog = log;
  const isReveal = (node: Node): node is HTMLElement => node instanceof HTMLElement && node.dataset.testid === 'reveal';
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes' && isReveal(record.target)) {
        log.states.push(record.target.dataset.state ?? '');
      }
      for (const node of record.addedNodes) {
        if (!isReveal(node)) continue;
        log.seen = true;
        log.states.push(node.dataset.state ?? '');
      }
      for (const node of record.removedNodes) {
        if (!isReveal(node)) continue;
        // A canvas taken out of the page keeps its pixels.
        const [laid, flying] = [...node.querySelectorAll('canvas')];
        log.final = laid?.toDataURL('image/png') ?? null;
        const ctx = flying?.getContext('2d');
        if (ctx && flying) {
          const { data } = ctx.getImageData(0, 0, flying.width, flying.height);
          let alpha = 0;
          for (let i = 3; i < data.length; i += 4) alpha += data[i] as number;
          log.flyingAlpha = alpha;
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
}

/** Mean absolute difference per channel (0–255) between two pictures of the same size. */
async function difference(a: Buffer, b: Buffer, size?: { width: number; height: number }): Promise<number> {
  const raw = async (image: Buffer) => {
    let picture = sharp(image).removeAlpha();
    if (size) picture = picture.resize(size.width, size.height, { fit: 'fill' });
    return picture.raw().toBuffer();
  };
  const [x, y] = await Promise.all([raw(a), raw(b)]);
  expect(x.length).toBe(y.length);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs((x[i] as number) - (y[i] as number));
  return sum / x.length;
}

/**
 * A screenshot of the artwork's place on the page against the artwork JPEG, both at an eighth of the
 * picture's size and softened: the browser and sharp scale the thin grout lines differently, so finer
 * comparisons measure their filters, not the picture.
 */
async function differenceFromArtwork(figure: Locator, artwork: Buffer): Promise<number> {
  const shot = await figure.screenshot({ animations: 'allow' });
  const size = { width: 135, height: 169 };
  // The figure's rounded corners show the page behind them: compare inside them.
  const inset = 4;
  const small = async (image: Buffer) =>
    sharp(await sharp(image).resize(size.width, size.height, { fit: 'fill' }).blur(1.5).png().toBuffer())
      .extract({ left: inset, top: inset, width: size.width - 2 * inset, height: size.height - 2 * inset })
      .png()
      .toBuffer();
  return difference(await small(shot), await small(artwork));
}

/** Age gate to the result screen with the fake camera's face; resolves once the photo is sent. */
async function sendSelfie(page: Page, country: string, locale: string): Promise<void> {
  await page.addInitScript(watchReveal);
  await reachCamera(page, country, locale);
  await takePhoto(page);
  await page.getByTestId('photo-continue').click();
  await page.waitForURL(`**${screenPath(country, locale, 'result')}`);
}

async function artworkJpeg(page: Page): Promise<Buffer> {
  const src = await page.getByTestId('artwork').getAttribute('src');
  const response = await page.request.get(src ?? '');
  expect(response.status()).toBe(200);
  return response.body();
}

const revealLog = (page: Page) => page.evaluate(() => window.revealLog);

let phone: Phone | undefined;
afterEach(async () => {
  await phone?.close();
  phone = undefined;
});

async function open(width = 390): Promise<Page> {
  phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), width });
  return phone.page;
}

describe('the reveal', () => {
  for (const [country, locale, skip] of [
    ['gb', 'en', 'Skip'],
    ['ae', 'ae-ar', 'تخطي'],
  ] as const) {
    it(`${locale}: lays the tesserae on the frame and ends on the artwork's own pixels`, async () => {
      const page = await open();
      const plans: { url: string; status: number; encoding?: string }[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'fetch' && /\.plan$/.test(response.url()))
          plans.push({
            url: response.url(),
            status: response.status(),
            encoding: response.headers()['content-encoding'],
          });
      });
      await sendSelfie(page, country, locale);
      const reveal = page.locator('[data-testid="reveal"][data-state="playing"]');
      await reveal.waitFor({ timeout: 120_000 });
      const figure = page.getByRole('figure');
      const artwork = await artworkJpeg(page);

      // Screen readers hear the artwork is ready, not the animation: the heading has focus, the image
      // keeps its alt text, the canvases are hidden from them; the Skip button has a name.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('result-heading');
      expect(await page.getByTestId('artwork').getAttribute('alt')).toBeTruthy();
      expect(await page.getByTestId('reveal').getAttribute('aria-hidden')).toBe('true');
      expect(await page.getByRole('button', { name: skip }).isVisible()).toBe(true);
      // The download stays at hand throughout.
      expect(await page.getByTestId('result-download').isEnabled()).toBe(true);

      // Frames change and come closer to the artwork as the tesserae arrive.
      const differences: number[] = [];
      const started = Date.now();
      let snaps = 0;
      while (
        (await page
          .getByTestId('reveal')
          .getAttribute('data-state')
          .catch(() => null)) === 'playing'
      ) {
        differences.push(await differenceFromArtwork(figure, artwork));
        const elapsed = Date.now() - started;
        if ((snaps === 0 && elapsed > 900) || (snaps === 1 && elapsed > 2200) || (snaps === 2 && elapsed > 3400)) {
          await snap(page, locale, `10-result-reveal-${++snaps}`, { settleMs: 0 });
        }
        if (Date.now() - started > 15_000) break;
      }
      expect(differences.length).toBeGreaterThanOrEqual(3);
      const [first = 0] = differences;
      const last = differences.at(-1) ?? 0;
      expect(first).toBeGreaterThan(50);
      expect(last).toBeLessThan(first / 2);
      for (let i = 1; i < differences.length; i++) {
        expect(differences[i]).toBeLessThan((differences[i - 1] as number) + 3);
      }

      await waitForRevealEnd(page);
      const log = await revealLog(page);
      expect(log.states).toContain('playing');
      expect(log.states).not.toContain('leaving');
      // The last frame is the JPEG itself, with nothing left in flight over it.
      expect(log.final).toMatch(/^data:image\/png;base64,/);
      const lastFrame = Buffer.from((log.final ?? '').split(',')[1] ?? '', 'base64');
      // Inside the figure's rounded corners, which the canvas cuts out of its own pixels.
      const inside = (image: Buffer) =>
        sharp(image)
          .extract({ left: 32, top: 32, width: 1080 - 64, height: 1350 - 64 })
          .png()
          .toBuffer();
      expect(await difference(await inside(lastFrame), await inside(artwork))).toBeLessThan(0.5);
      expect(log.flyingAlpha).toBe(0);
      // And the page shows the artwork as it was before the reveal existed.
      expect(await differenceFromArtwork(figure, artwork)).toBeLessThan(6);
      expect(await page.getByTestId('artwork').evaluate((img) => getComputedStyle(img).opacity)).toBe('1');

      const session = await storedSession(page);
      expect(session.artworkRevealed).toBe(true);
      expect(plans).toEqual([
        { url: new URL(String(session.layingPlan), inject('baseURL')).href, status: 200, encoding: 'gzip' },
      ]);

      // Coming back to it shows it at once.
      await page.reload();
      await page.getByTestId('artwork').waitFor();
      await page.waitForTimeout(1000);
      expect((await revealLog(page)).seen).toBe(false);
    });

    it(`${locale}: shows the artwork at once under reduced motion`, async () => {
      const page = await open(360);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await sendSelfie(page, country, locale);
      await page.getByTestId('artwork').waitFor({ timeout: 120_000 });
      await page.getByTestId('artwork').evaluate((img: HTMLImageElement) => img.decode());
      expect(await page.getByTestId('artwork').evaluate((img) => getComputedStyle(img).opacity)).toBe('1');
      await page.waitForTimeout(1000);
      expect((await revealLog(page)).seen).toBe(false);
      expect(await differenceFromArtwork(page.getByRole('figure'), await artworkJpeg(page))).toBeLessThan(6);
    });
  }

  it('en: a tap on the picture skips to the artwork; ae-ar: so does the Skip button', async () => {
    for (const [country, locale, skip] of [
      ['gb', 'en', null],
      ['ae', 'ae-ar', 'تخطي'],
    ] as const) {
      const page = await open();
      await sendSelfie(page, country, locale);
      await page.locator('[data-testid="reveal"][data-state="playing"]').waitFor({ timeout: 120_000 });
      await expectAccessible(page, `result (${locale}, revealing)`);
      const tapped = Date.now();
      if (skip) {
        await page.getByRole('button', { name: skip }).focus();
        await page.keyboard.press('Enter');
      } else {
        await page.getByTestId('reveal').tap();
      }
      await waitForRevealEnd(page);
      expect(Date.now() - tapped).toBeLessThan(2000);
      expect((await revealLog(page)).states).toContain('leaving');
      expect(await differenceFromArtwork(page.getByRole('figure'), await artworkJpeg(page))).toBeLessThan(6);
      await phone?.close();
      phone = undefined;
    }
  });
});
