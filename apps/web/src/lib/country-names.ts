import type { LocaleCode } from '@selfie-mosaic/campaign';

type CountryNames = Record<string, string>;

/**
 * Each locale's names of the markets offering it, generated from CLDR (build/country-names.ts): the
 * browser's Intl lacks several of our languages. One tiny file per locale, fetched with its copy.
 */
const files = import.meta.glob<CountryNames>('../locales/countries/*.json', { import: 'default' });

/** The locale's country names; none when the locale has no file (its pages then fall back to codes). */
export async function loadCountryNames(code: LocaleCode): Promise<CountryNames> {
  const load = files[`../locales/countries/${code}.json`];
  return load ? load() : {};
}

/** The name `{{country}}` inserts; the code, upper case, only if a name were ever missing. */
export function countryName(names: CountryNames, country: string): string {
  return names[country.toLowerCase()] ?? country.toUpperCase();
}
