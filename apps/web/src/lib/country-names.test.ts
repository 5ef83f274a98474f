import { LOCALE_CODES } from '@selfie-mosaic/campaign';
import { describe, expect, it } from 'vitest';
import { countryName, loadCountryNames } from './country-names';

describe('country names', () => {
  it('loads the names a locale inserts, in its own language and script', async () => {
    expect(countryName(await loadCountryNames('ka'), 'ge')).toBe('საქართველო');
    expect(countryName(await loadCountryNames('kk'), 'KZ')).toBe('Қазақстан');
    expect(countryName(await loadCountryNames('bm'), 'me')).toBe('Crna Gora');
    expect(countryName(await loadCountryNames('en'), 'gb')).toBe('the United Kingdom');
  });

  it('ships a file for every locale, holding only its own markets', async () => {
    for (const code of LOCALE_CODES) expect(Object.keys(await loadCountryNames(code)).length, code).toBeGreaterThan(0);
    expect(Object.keys(await loadCountryNames('ka'))).toEqual(['ge']);
  });
});
