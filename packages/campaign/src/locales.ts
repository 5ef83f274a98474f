/**
 * The 35 locales (docs/product.md#locales-and-markets). `code` is the URL segment; `tag` is the BCP 47 tag for Intl and
 * `lang`.
 */
export interface Locale {
  code: LocaleCode;
  /**
   * The language's own name, as a visitor looks for it in the market's language switch. A market never
   * offers one language twice, so the country is left out (it would widen the switch on a phone).
   */
  name: string;
  tag: string;
  dir: 'ltr' | 'rtl';
  /** The country a prefixed code belongs to (`ae-ar` → `ae`); plain codes have none. */
  country?: string;
}

export const LOCALE_CODES = [
  'ae-ar',
  'az',
  'bg',
  'bm',
  'ca',
  'cs',
  'de',
  'eg-ar',
  'el',
  'en',
  'es',
  'et',
  'fr',
  'hr',
  'hy',
  'it',
  'jo-en',
  'jo-ar',
  'ka',
  'kk',
  'kz-ru',
  'kw-ar',
  'lb-ar',
  'lt',
  'lv',
  'ru',
  'sa-ar',
  'mk',
  'pl',
  'pt',
  'ro',
  'sk',
  'sq',
  'tr',
  'uz',
] as const;

export type LocaleCode = (typeof LOCALE_CODES)[number];

const rtl = 'rtl' as const;
const ltr = 'ltr' as const;

export const LOCALES: readonly Locale[] = [
  { code: 'ae-ar', name: 'العربية', tag: 'ar-AE', dir: rtl, country: 'ae' },
  { code: 'az', name: 'Azərbaycan', tag: 'az', dir: ltr },
  { code: 'bg', name: 'Български', tag: 'bg', dir: ltr },
  { code: 'bm', name: 'Bosanski / Crnogorski', tag: 'bs', dir: ltr },
  { code: 'ca', name: 'Català', tag: 'ca', dir: ltr },
  { code: 'cs', name: 'Čeština', tag: 'cs', dir: ltr },
  { code: 'de', name: 'Deutsch', tag: 'de', dir: ltr },
  { code: 'eg-ar', name: 'العربية', tag: 'ar-EG', dir: rtl, country: 'eg' },
  { code: 'el', name: 'Ελληνικά', tag: 'el', dir: ltr },
  { code: 'en', name: 'English', tag: 'en', dir: ltr },
  { code: 'es', name: 'Español', tag: 'es', dir: ltr },
  { code: 'et', name: 'Eesti', tag: 'et', dir: ltr },
  { code: 'fr', name: 'Français', tag: 'fr', dir: ltr },
  { code: 'hr', name: 'Hrvatski', tag: 'hr', dir: ltr },
  { code: 'hy', name: 'Հայերեն', tag: 'hy', dir: ltr },
  { code: 'it', name: 'Italiano', tag: 'it', dir: ltr },
  { code: 'jo-en', name: 'English', tag: 'en-JO', dir: ltr, country: 'jo' },
  { code: 'jo-ar', name: 'العربية', tag: 'ar-JO', dir: rtl, country: 'jo' },
  { code: 'ka', name: 'ქართული', tag: 'ka', dir: ltr },
  { code: 'kk', name: 'Қазақ тілі', tag: 'kk', dir: ltr },
  { code: 'kz-ru', name: 'Русский', tag: 'ru-KZ', dir: ltr, country: 'kz' },
  { code: 'kw-ar', name: 'العربية', tag: 'ar-KW', dir: rtl, country: 'kw' },
  { code: 'lb-ar', name: 'العربية', tag: 'ar-LB', dir: rtl, country: 'lb' },
  { code: 'lt', name: 'Lietuvių', tag: 'lt', dir: ltr },
  { code: 'lv', name: 'Latviešu', tag: 'lv', dir: ltr },
  { code: 'ru', name: 'Русский', tag: 'ru', dir: ltr },
  { code: 'sa-ar', name: 'العربية', tag: 'ar-SA', dir: rtl, country: 'sa' },
  { code: 'mk', name: 'Македонски', tag: 'mk', dir: ltr },
  { code: 'pl', name: 'Polski', tag: 'pl', dir: ltr },
  { code: 'pt', name: 'Português', tag: 'pt', dir: ltr },
  { code: 'ro', name: 'Română', tag: 'ro', dir: ltr },
  { code: 'sk', name: 'Slovenčina', tag: 'sk', dir: ltr },
  { code: 'sq', name: 'Shqip', tag: 'sq', dir: ltr },
  { code: 'tr', name: 'Türkçe', tag: 'tr', dir: ltr },
  { code: 'uz', name: 'Oʻzbekcha', tag: 'uz', dir: ltr },
];

const byCode = new Map<string, Locale>(LOCALES.map((locale) => [locale.code, locale]));

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && byCode.has(value);
}

export function getLocale(code: LocaleCode): Locale {
  const locale = byCode.get(code);
  if (!locale) throw new TypeError(`Expected a locale code for code but received ${JSON.stringify(code)}`);
  return locale;
}
