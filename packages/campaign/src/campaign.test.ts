import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CAMPAIGN,
  findMarket as findIn,
  getLocale,
  LOCALE_CODES,
  LOCALES,
  type LocaleCode,
  legalLinks,
} from './index.js';
import { marketsForLocale as marketsIn } from './markets.js';

const MARKETS = DEFAULT_CAMPAIGN.markets;
const findMarket = (country: string) => findIn(DEFAULT_CAMPAIGN, country);
const marketsForLocale = (locale: LocaleCode) => marketsIn(DEFAULT_CAMPAIGN, locale);

describe('locales', () => {
  it(`has the ${LOCALE_CODES.length} locales of the product, each once`, () => {
    expect(LOCALES).toHaveLength(LOCALE_CODES.length);
    expect(new Set(LOCALES.map((l) => l.code)).size).toBe(LOCALE_CODES.length);
    expect(LOCALES.map((l) => l.code).sort()).toEqual([...LOCALE_CODES].sort());
  });

  it('writes right to left exactly in the six Arabic locales', () => {
    const rtl = LOCALES.filter((l) => l.dir === 'rtl').map((l) => l.code);
    expect(rtl.sort()).toEqual(['ae-ar', 'eg-ar', 'jo-ar', 'kw-ar', 'lb-ar', 'sa-ar']);
  });

  it('gives every locale a tag Intl understands', () => {
    for (const locale of LOCALES) expect(Intl.getCanonicalLocales(locale.tag)).toHaveLength(1);
  });
});

describe('markets', () => {
  it('puts a prefixed locale in its own country', () => {
    for (const locale of LOCALES.filter((l) => l.country)) {
      expect(findMarket(locale.country ?? '')?.locales).toContain(locale.code);
    }
  });

  it('offers every plain language where it is the main language', () => {
    const home: Record<string, string> = {
      de: 'de',
      lv: 'lv',
      ka: 'ge',
      kk: 'kz',
      cs: 'cz',
      el: 'gr',
      et: 'ee',
      hy: 'am',
      sq: 'al',
      bm: 'me',
      uz: 'uz',
      tr: 'tr',
      pl: 'pl',
      pt: 'pt',
      ro: 'ro',
      sk: 'sk',
      mk: 'mk',
      lt: 'lt',
      ru: 'ru',
      hr: 'hr',
      it: 'it',
      fr: 'fr',
      es: 'es',
      bg: 'bg',
      az: 'az',
      ca: 'ad',
      en: 'gb',
    };
    for (const [code, country] of Object.entries(home)) expect(findMarket(country)?.locales).toContain(code);
  });

  it('reaches every locale from some market', () => {
    for (const code of LOCALE_CODES) expect(marketsForLocale(code).length).toBeGreaterThan(0);
  });

  it('asks the minimum age of SPEC §5 in every language of a market', () => {
    const ages = Object.fromEntries(MARKETS.map((m) => [m.country, m.minimumAge]));
    expect(ages).toMatchObject({ jo: 19, lv: 20, ru: 20, kz: 21 });
    const others = MARKETS.filter((m) => !['jo', 'lv', 'ru', 'kz'].includes(m.country));
    for (const m of others) expect(m.minimumAge, m.country).toBe(18);
  });

  it('lists each language once in a market’s language switch', () => {
    for (const market of MARKETS) {
      const names = market.locales.map((code) => getLocale(code).name);
      expect(new Set(names).size, market.country).toBe(names.length);
    }
  });

  it('finds markets case-insensitively and knows no others', () => {
    expect(findMarket('DE')?.country).toBe('de');
    expect(findMarket('xx')).toBeUndefined();
    expect(new Set(MARKETS.map((m) => m.country)).size).toBe(MARKETS.length);
  });

  it('builds legal links under the market and locale', () => {
    expect(legalLinks(findMarket('DE') as (typeof MARKETS)[number], 'de')).toEqual({
      dataProtection: 'https://www.iqos.com/de/de/privacy-policy',
      imprint: 'https://www.iqos.com/de/de/imprint',
    });
  });

  it('asks residence in the Gulf, Levant, Egypt and Kazakhstan only, and uses black label nowhere', () => {
    const residence = MARKETS.filter((m) => m.confirmResidence).map((m) => m.country);
    expect(residence.sort()).toEqual(['ae', 'eg', 'jo', 'kw', 'kz', 'lb', 'sa']);
    expect(MARKETS.filter((m) => m.blackLabel)).toEqual([]);
  });
});
