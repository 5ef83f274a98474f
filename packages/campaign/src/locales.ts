/**
 * The locales (docs/product.md#locales-and-markets). `code` is the URL segment; `tag` is the BCP 47 tag for Intl and
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

/**
 * Each locale's language in its own name, as a visitor looks for it in the market's language switch. A
 * market never offers one language twice, so the country is left out (it would widen the switch on a phone).
 */
const OWN_NAMES: Record<LocaleCode, string> = {
  'ae-ar': 'العربية',
  az: 'Azərbaycan',
  bg: 'Български',
  bm: 'Bosanski / Crnogorski',
  ca: 'Català',
  cs: 'Čeština',
  de: 'Deutsch',
  'eg-ar': 'العربية',
  el: 'Ελληνικά',
  en: 'English',
  es: 'Español',
  et: 'Eesti',
  fr: 'Français',
  hr: 'Hrvatski',
  hy: 'Հայերեն',
  it: 'Italiano',
  'jo-en': 'English',
  'jo-ar': 'العربية',
  ka: 'ქართული',
  kk: 'Қазақ тілі',
  'kz-ru': 'Русский',
  'kw-ar': 'العربية',
  'lb-ar': 'العربية',
  lt: 'Lietuvių',
  lv: 'Latviešu',
  ru: 'Русский',
  'sa-ar': 'العربية',
  mk: 'Македонски',
  pl: 'Polski',
  pt: 'Português',
  ro: 'Română',
  sk: 'Slovenčina',
  sq: 'Shqip',
  tr: 'Türkçe',
  uz: 'Oʻzbekcha',
};

/** The BCP 47 language where the code's own reads as another (`bm` would be Bambara). */
const LANGUAGE_TAGS: Partial<Record<string, string>> = { bm: 'bs' };
const RTL_LANGUAGES = new Set(['ar']);

/** A plain code is a language (`de`); a prefixed one is a country and its language (`ae-ar` → `ar-AE`). */
function describeLocale(code: LocaleCode): Locale {
  const [country, language = code] = code.includes('-') ? code.split('-') : [undefined];
  const base = LANGUAGE_TAGS[language] ?? language;
  return {
    code,
    name: OWN_NAMES[code],
    tag: country ? `${base}-${country.toUpperCase()}` : base,
    dir: RTL_LANGUAGES.has(base) ? 'rtl' : 'ltr',
    ...(country ? { country } : {}),
  };
}

export const LOCALES: readonly Locale[] = LOCALE_CODES.map(describeLocale);

const byCode = new Map<string, Locale>(LOCALES.map((locale) => [locale.code, locale]));

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && byCode.has(value);
}

export function getLocale(code: LocaleCode): Locale {
  const locale = byCode.get(code);
  if (!locale) throw new TypeError(`Expected a locale code for code but received ${JSON.stringify(code)}`);
  return locale;
}
