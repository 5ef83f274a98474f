import { COUNTRIES, LOCALE_CODES } from '@selfie-mosaic/campaign';
import { describe, expect, it } from 'vitest';
import { countryNamesFor } from './country-names';

/**
 * The app ships, per locale, the names CLDR gives every country a campaign may run in (src/locales/countries).
 * These files are CLDR's data as this package version has it: after upgrading cldr-localenames-full,
 * `vitest run -u build/country-names.test.ts` writes them anew, for review like any other change.
 */
describe.each(LOCALE_CODES)('country names in %s', (code) => {
  it('are the shipped file, in sync with CLDR', async () => {
    const json = `${JSON.stringify(countryNamesFor(code), null, 2)}\n`;
    await expect(json).toMatchFileSnapshot(`../src/locales/countries/${code}.json`);
  });
});

describe('country names', () => {
  it('name every country a campaign may add, in every language', () => {
    for (const code of LOCALE_CODES) expect(Object.keys(countryNamesFor(code)), code).toEqual([...COUNTRIES].sort());
    expect(countryNamesFor('de').nl).toBe('Niederlande');
    expect(countryNamesFor('en').nl).toBe('the Netherlands');
  });

  it('are written in the page’s language, Latin where the language also has Cyrillic', () => {
    expect(countryNamesFor('ka').ge).toBe('საქართველო');
    expect(countryNamesFor('kk').kz).toBe('Қазақстан');
    expect(countryNamesFor('mk').mk).toBe('Северна Македонија');
    expect(countryNamesFor('hy').am).toBe('Հայաստան');
    expect(countryNamesFor('sq').al).toBe('Shqipëri');
    expect(countryNamesFor('uz').uz).toBe('Oʻzbekiston');
    expect(countryNamesFor('bm')).toMatchObject({ ba: 'Bosna i Hercegovina', me: 'Crna Gora', rs: 'Srbija' });
    expect(countryNamesFor('ru')).toMatchObject({ lv: 'Латвия', ee: 'Эстония', uz: 'Узбекистан' });
    expect(countryNamesFor('ae-ar').ae).toBe('الإمارات العربية المتحدة');
  });

  it('read naturally after "in" in English', () => {
    const english = countryNamesFor('en');
    expect(english).toMatchObject({
      gb: 'the United Kingdom',
      ae: 'the United Arab Emirates',
      ba: 'Bosnia and Herzegovina',
      de: 'Germany',
      ge: 'Georgia',
      mk: 'North Macedonia',
    });
    expect(countryNamesFor('jo-en').jo).toBe('Jordan');
  });
});
