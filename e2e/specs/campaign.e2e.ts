import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCampaignText } from '@selfie-mosaic/campaign';
import { ARTWORK } from '@selfie-mosaic/contract';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';
import { holdQueueUpdates, reachCamera, snap, takePhoto, waitForArtwork } from '../support/flow.js';
import { type RunningServer, startServer } from '../support/server-process.js';

/** The example campaign of the repository: another brand, theme, palette and set of markets. */
const CAMPAIGN_FILE = resolve(import.meta.dirname, '../../campaigns/aurora.json');
const campaign = parseCampaignText(await readFile(CAMPAIGN_FILE, 'utf8'), CAMPAIGN_FILE);

/** `#6c2a8a` → `rgb(108, 42, 138)`, as getComputedStyle reports a colour. */
function cssRgb(hex: string): string {
  return `rgb(${hexRgb(hex).join(', ')})`;
}

function hexRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** The largest difference of one channel: JPEG moves a flat colour by a few levels. */
function distance(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((value, index) => Math.abs(value - (b[index] ?? 0))));
}

interface Artwork {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number];
}

async function decode(file: string): Promise<Artwork> {
  const { data, info } = await sharp(await readFile(file))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    pixel: (x, y) => {
      const at = (y * info.width + x) * info.channels;
      return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
    },
  };
}

/** How many pixels of the wordmark band, under the mosaic's window, are the wordmark's colour. */
function wordmarkPixels(artwork: Artwork, hex: string): number {
  const colour = hexRgb(hex);
  let count = 0;
  for (let y = artwork.height - 80; y < artwork.height - 10; y++) {
    for (let x = 100; x < artwork.width - 100; x++) if (distance(artwork.pixel(x, y), colour) <= 24) count++;
  }
  return count;
}

/** Age gate to downloaded artwork in one market; resolves to the saved JPEG and whether black label was asked. */
async function createArtwork(page: Page, country: string, locale: string) {
  await reachCamera(page, country, locale);
  await takePhoto(page);
  const upload = page.waitForRequest((request) => request.url().endsWith('/api/upload'));
  const release = await holdQueueUpdates(page);
  await page.getByTestId('photo-continue').click();
  const blacklabel = /name="blacklabel"\r\n\r\n(\w+)/.exec((await upload).postData() ?? '')?.[1];
  await page.waitForURL(`**/${country}/${locale}/result`);
  await release();
  await waitForArtwork(page);
  await page.locator('[data-testid="artwork"]').evaluate((img: HTMLImageElement) => img.decode());
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('result-download').click()]);
  return { file: await download.path(), name: download.suggestedFilename(), blacklabel };
}

describe('the example campaign (campaigns/aurora.json), started with CAMPAIGN_FILE', () => {
  let server: RunningServer;
  let phone: Phone;

  beforeAll(async () => {
    server = await startServer({ CAMPAIGN_FILE, WORKERS: '1', LOG_LEVEL: 'warn' });
    phone = await openPhone({ baseURL: server.url, video: inject('faceVideo'), locale: 'en-GB' });
  });
  afterAll(async () => {
    await phone?.close();
    await server?.stop();
  });

  it('shows its brand, theme, copy and legal links on the start screen', async () => {
    const { page } = phone;
    await page.goto('/nl/en/start');
    await expect.poll(() => page.title()).toBe('Welcome | Aurora Portraits');
    await expect.poll(() => page.locator('.wordmark__text').textContent()).toBe('Aurora × Studio Lumen');
    expect(await page.locator('.eyebrow').first().textContent()).toBe('A portrait in light');
    const yes = page.getByTestId('age-yes');
    expect(await yes.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
      cssRgb(campaign.theme.primaryStrong),
    );
    expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe(cssRgb(campaign.theme.ink));
    expect(
      await page.locator('.legal-links a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['https://aurora.example/nl/en/privacy', 'https://aurora.example/imprint']);
    // The country today's campaign lacks is named in the copy, not shown as a code.
    expect(await page.locator('.care__warning').textContent()).toContain('the Netherlands');
    await snap(page, 'campaign', 'start');
  });

  it('runs in its own markets, with their ages, residence line and languages, and nowhere else', async () => {
    const { page } = phone;
    const gone = await page.goto('/gb/en/start');
    expect(gone?.status()).toBe(404);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('age-yes').count()).toBe(0);

    expect((await page.goto('/ch/de/start'))?.status()).toBe(200);
    const question = page.getByRole('heading', { level: 1 });
    await expect.poll(() => question.textContent()).toMatch(/volljährig/i);
    expect(await question.textContent()).not.toMatch(/\d/);
    expect(await page.locator('.language-switch option').allTextContents()).toEqual([
      'Deutsch',
      'Français',
      'Italiano',
      'English',
    ]);

    await page.goto('/pt/en/start');
    await expect.poll(() => page.locator('.lead').first().textContent()).toMatch(/18 or older and living in Portugal/);
    expect(await page.locator('.legal-links a').nth(1).getAttribute('href')).toBe('https://aurora.example/pt/imprensa');
  });

  it('lays the artwork in its palette with its frame, wordmark and file name', async () => {
    const { page } = phone;
    const { file, name, blacklabel } = await createArtwork(page, 'nl', 'en');
    await snap(page, 'campaign', 'result');
    expect(blacklabel).toBe('false');
    expect(name).toBe('aurora-portrait.jpg');
    const artwork = await decode(file);
    expect([artwork.width, artwork.height]).toEqual([ARTWORK.width, ARTWORK.height]);
    const { frame, wordmark } = campaign.art.standard;
    for (const [x, y] of [
      [8, 8],
      [artwork.width - 8, 600],
      [40, artwork.height - 40],
    ] as const) {
      expect(distance(artwork.pixel(x, y), hexRgb(frame)), `frame at ${x},${y}`).toBeLessThanOrEqual(12);
    }
    expect(wordmarkPixels(artwork, wordmark)).toBeGreaterThan(500);
  });

  it('uses the black-label art in a black-label market', async () => {
    const { page } = phone;
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    const { file, blacklabel } = await createArtwork(page, 'pt', 'en');
    expect(blacklabel).toBe('true');
    const artwork = await decode(file);
    const { frame, wordmark } = campaign.art.blacklabel;
    expect(distance(artwork.pixel(8, 8), hexRgb(frame))).toBeLessThanOrEqual(12);
    expect(wordmarkPixels(artwork, wordmark)).toBeGreaterThan(500);
  });
});
