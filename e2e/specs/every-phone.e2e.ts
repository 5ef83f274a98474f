import { readFile } from 'node:fs/promises';
import { DEFAULT_CAMPAIGN, getLocale, type LocaleCode } from '@selfie-mosaic/campaign';
import { screenPath } from '@selfie-mosaic/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';

/** The narrowest phone the app supports (docs/product.md#accessibility-and-devices). */
const NARROW = { width: 360, height: 780 };
/** Common wider phones, where the wordmark and the language switch share a row when they fit. */
const WIDER = [390, 412];

const PAIRS = DEFAULT_CAMPAIGN.markets.flatMap((market) =>
  market.locales.map((locale) => ({ country: market.country, locale })),
);
const englishNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** English-language locales (`en`, `jo-en`) may name a country the English way. */
const isEnglish = (locale: LocaleCode) => new Intl.Locale(getLocale(locale).tag).language === 'en';

async function shippedNames(locale: string): Promise<Record<string, string>> {
  const file = new URL(`../../apps/web/src/locales/countries/${locale}.json`, import.meta.url);
  return JSON.parse(await readFile(file, 'utf8'));
}

interface Layout {
  scrollWidth: number;
  clientWidth: number;
  /** Elements drawn past the viewport's inline edges and not clipped by a box inside it. */
  outside: string[];
  /** The page's visible words, without the language switch (whose options name other languages). */
  text: string;
  /** Lines the brand lockup takes in the header ("IQOS × TESSERA STUDIO" should take one). */
  wordmarkLines: number;
}

/** Runs in the page: sideways scroll, elements past the edges, and the text a visitor reads. */
function measureLayout(): Layout {
  const root = document.documentElement;
  const width = root.clientWidth;
  const clips = (el: Element) => {
    if (el === document.body || el === root) return false;
    const { overflowX } = getComputedStyle(el);
    return overflowX !== 'visible';
  };
  const describe = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
  const outside: string[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left >= -0.5 && box.right <= width + 0.5) continue;
    let clipped = false;
    for (let parent = el.parentElement; parent && !clipped; parent = parent.parentElement) {
      if (!clips(parent)) continue;
      const frame = parent.getBoundingClientRect();
      clipped = frame.left >= -0.5 && frame.right <= width + 0.5;
    }
    if (!clipped) outside.push(`${describe(el)} spans ${Math.round(box.left)}…${Math.round(box.right)} px`);
  }
  const words: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest('select, script, style')) words.push(node.textContent ?? '');
  }
  const names = [...document.querySelectorAll('.wordmark__name')].map((name) =>
    Math.round(name.getBoundingClientRect().top),
  );
  return {
    scrollWidth: root.scrollWidth,
    clientWidth: width,
    outside,
    text: words.join(' '),
    wordmarkLines: new Set(names).size,
  };
}

async function screenLayout(page: Page, screen: string): Promise<Layout> {
  await page.waitForURL(`**/${screen}`);
  await page.locator('h1').first().waitFor();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return page.evaluate(measureLayout);
}

describe('every market and language on a 360 px phone', () => {
  let phone: Phone;

  beforeAll(async () => {
    // One browser and one page for every pair: each pair starts as a new visitor (no storage, no cookies).
    phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), camera: 'none' });
    await phone.page.setViewportSize(NARROW);
    // The screens' entrance motion would only make each click wait for the screen to settle.
    await phone.page.emulateMedia({ reducedMotion: 'reduce' });
    await phone.context.addInitScript(() => localStorage.clear());
  });

  afterAll(() => phone?.close());

  for (const { country, locale } of PAIRS) {
    it(`${country}/${locale}: no sideways scroll and the country named in the page’s language`, async () => {
      const { page, context } = phone;
      const local = (await shippedNames(locale))[country] ?? '';
      // CLDR's English name and the one the English copy inserts ("Bosnia & Herzegovina", "Bosnia and …").
      const englishForms = new Set(
        [englishNames.of(country.toUpperCase()), (await shippedNames('en'))[country]]
          .filter((name): name is string => !!name)
          .map((name) => name.replace(/^the /, '')),
      );
      // An English name counts only where the language spells the country otherwise ("Andorra" is Catalan
      // too). Node's full ICU, not the app's data, says how the language spells it.
      const native = new Intl.DisplayNames([getLocale(locale).tag], { type: 'region' }).of(country.toUpperCase()) ?? '';
      const foreignNames = isEnglish(locale) ? [] : [...englishForms].filter((name) => !native.includes(name));
      const problems: string[] = [];
      const check = async (screen: string) => {
        const layout = await screenLayout(page, screen);
        if (layout.scrollWidth > layout.clientWidth) {
          problems.push(`${screen}: scrolls sideways by ${layout.scrollWidth - layout.clientWidth} px`);
        }
        for (const element of layout.outside) problems.push(`${screen}: ${element}`);
        for (const name of foreignNames) if (layout.text.includes(name)) problems.push(`${screen}: says "${name}"`);
        return layout;
      };

      await context.clearCookies();
      await page.goto(screenPath(country, locale, 'start'));
      const start = await check('start');
      expect(start.text, 'the health warning names the country').toContain(local);
      // Wider phones too: the lockup never folds beside the language switch.
      for (const width of [...WIDER, NARROW.width]) {
        await page.setViewportSize({ ...NARROW, width });
        const { wordmarkLines } = await page.evaluate(measureLayout);
        if (wordmarkLines !== 1) problems.push(`start at ${width} px: the wordmark takes ${wordmarkLines} lines`);
      }

      await page.getByTestId('age-no').click();
      await check('exit');
      await page.locator(`a[href$="${screenPath(country, locale, 'start')}"]`).click();
      await page.getByTestId('age-yes').click();
      await check('curious');
      await page.locator('main a[href$="/terms"]').click();
      await check('terms');
      await page.locator('main').getByRole('button').click();
      await page.getByTestId('consent-checkbox').check();
      await page.getByTestId('consent-continue').click();
      await page.getByTestId('camera-allow').waitFor();
      await check('photo');

      expect(problems).toEqual([]);
    });
  }
});
