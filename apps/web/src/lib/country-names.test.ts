import { LOCALE_CODES } from '@selfie-mosaic/campaign';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveLocaleFiles } from '../test/locale-files';
import { countryName, loadCountryNames } from './country-names';

beforeEach(() => serveLocaleFiles());
afterEach(() => vi.restoreAllMocks());

describe('country names', () => {
  it('loads the names a locale inserts, in its own language and script', async () => {
    expect(countryName(await loadCountryNames('ka'), 'ge')).toBe('საქართველო');
    expect(countryName(await loadCountryNames('kk'), 'KZ')).toBe('Қазақстан');
    expect(countryName(await loadCountryNames('bm'), 'me')).toBe('Crna Gora');
    expect(countryName(await loadCountryNames('en'), 'gb')).toBe('the United Kingdom');
  });

  it('ships a file for every locale, naming countries a campaign may add as well as today’s markets', async () => {
    for (const code of LOCALE_CODES)
      expect(Object.keys(await loadCountryNames(code)).length, code).toBeGreaterThan(240);
    expect(countryName(await loadCountryNames('ka'), 'nl')).toBe('ნიდერლანდები');
  });
});
