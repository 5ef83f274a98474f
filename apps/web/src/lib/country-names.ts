import type { LocaleCode } from '@selfie-mosaic/campaign';

type CountryNames = Record<string, string>;

/**
 * Each locale's names of every country a campaign may run in, generated from CLDR (build/country-names.ts): the
 * browser's Intl lacks several of our languages. One file per locale, fetched as data with its copy.
 */
const urls = import.meta.glob<string>('../locales/countries/*.json', { query: '?url', import: 'default', eager: true });

/** The locale's country names; none when the locale has no file or it cannot be fetched (pages then show codes). */
export async function loadCountryNames(code: LocaleCode): Promise<CountryNames> {
  const url = urls[`../locales/countries/${code}.json`];
  if (!url) return {};
  const response = await fetch(url);
  return response.ok ? ((await response.json()) as CountryNames) : {};
}

/** The name `{{country}}` inserts; the code, upper case, only if a name were ever missing. */
export function countryName(names: CountryNames, country: string): string {
  return names[country.toLowerCase()] ?? country.toUpperCase();
}
