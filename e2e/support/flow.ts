import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { screenPath } from '@selfie-mosaic/contract';
import type { Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';

/** Where `npm run screens -w e2e` keeps the screenshots of every screen; unset in a plain test run. */
const screensDir = process.env.SCREENS_DIR ? resolve(process.env.SCREENS_DIR) : undefined;

/** Saves a phone screenshot of the current screen when screenshots are asked for. */
export async function snap(page: Page, locale: string, name: string, { settleMs = 400 } = {}): Promise<void> {
  if (!screensDir) return;
  mkdirSync(screensDir, { recursive: true });
  // Motion settles first so the picture shows the screen, not a transition (unless the state is short-lived).
  await page.waitForTimeout(settleMs);
  const shot = await page.screenshot();
  // Kept in the repository: twice the CSS size (sharp on a phone's 2.6× screen) as a palette PNG,
  // which keeps each picture under 300 KB.
  const width = (page.viewportSize()?.width ?? 390) * 2;
  await sharp(shot)
    .resize({ width })
    .png({ palette: true, quality: 70, compressionLevel: 9, effort: 10 })
    .toFile(join(screensDir, `${locale}-${name}.png`));
}

/** Saves a screenshot as `<name>.png` (the whole page when asked) when screenshots are asked for. */
export async function snapPage(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  if (!screensDir) return;
  mkdirSync(screensDir, { recursive: true });
  // No hover state in the picture, and motion settled.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
  const shot = await page.screenshot({ fullPage });
  await sharp(shot)
    .png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 })
    .toFile(join(screensDir, `${name}.png`));
}

/** axe on the current screen: no serious or critical violation (WCAG 2.2 AA rules included). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const severe = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(severe, `axe on the ${screen} screen`).toEqual([]);
}

/** Age gate → terms → the camera screen, as a visitor clicks through it. */
export async function reachCamera(page: Page, country: string, locale: string): Promise<void> {
  await page.goto(screenPath(country, locale, 'start'));
  await page.getByTestId('age-yes').click();
  await page.waitForURL(`**${screenPath(country, locale, 'curious')}`);
  await page.getByTestId('consent-checkbox').check();
  await page.getByTestId('consent-continue').click();
  await page.waitForURL(`**${screenPath(country, locale, 'photo')}`);
}

/** Turns the camera on, takes the photo after the countdown, and waits for the review. */
export async function takePhoto(page: Page): Promise<void> {
  await page.getByTestId('camera-allow').click();
  const take = page.getByTestId('photo-take');
  await expect.poll(() => take.isEnabled(), { timeout: 15_000 }).toBe(true);
  await take.click();
  await page.getByTestId('photo-continue').waitFor({ timeout: 15_000 });
}

/**
 * Holds the job's status updates (event stream and polls) until the returned function is called, so
 * the waiting screen can be checked and pictured however quickly the artwork is ready.
 */
export async function holdQueueUpdates(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  const pattern = '**/api/queue/**';
  await page.route(pattern, (route) => {
    held.push(route);
  });
  return async () => {
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(pattern);
  };
}

/** Waits for the finished artwork, shown as it is: after its reveal (the tesserae being laid), if one plays. */
export async function waitForArtwork(page: Page): Promise<void> {
  await page.getByTestId('artwork').waitFor({ timeout: 120_000 });
  await waitForRevealEnd(page);
}

/** The reveal is over (or never began): its canvases are gone and the artwork's image shows. */
export async function waitForRevealEnd(page: Page): Promise<void> {
  await page.getByTestId('reveal').waitFor({ state: 'detached', timeout: 20_000 });
}

export async function storedSession(page: Page): Promise<Record<string, unknown>> {
  const { SESSION_STORAGE_KEY } = await import('@selfie-mosaic/contract');
  const raw = await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}
