import type { LocaleCode } from './locales.js';

/** A country the campaign runs in. Countries are ISO 3166-1 alpha-2 codes, lower case, as in URLs. */
export interface Market {
  country: string;
  /** Locales offered in this market; the first is the default. */
  locales: readonly LocaleCode[];
  /** Whether the age gate adds the line "are you over {age} and living in {country}?" (docs/product.md#start). */
  confirmResidence: boolean;
  /**
   * The age every locale of the market asks (docs/product.md#age-gate): the law is the country's, whatever the
   * language. null asks for "legal age" without a number, for a market whose operator configures it that way.
   */
  minimumAge: number | null;
}

/** The minimum age where a market sets none of its own. */
export const DEFAULT_MINIMUM_AGE = 18;

interface MarketOptions {
  confirmResidence?: boolean;
  minimumAge?: number | null;
}

function market(country: string, locales: readonly LocaleCode[], options: MarketOptions = {}): Market {
  const { confirmResidence = false, minimumAge = DEFAULT_MINIMUM_AGE } = options;
  return { country, locales, confirmResidence, minimumAge };
}

const residence = { confirmResidence: true };

/**
 * Every prefixed locale belongs to its own country and every plain language code to at least the
 * country where it is the main language (`ka` → `ge`, `kk` → `kz`, `bm` → `me` and `ba`).
 */
export const MARKETS: readonly Market[] = [
  market('ae', ['ae-ar', 'en'], residence),
  market('al', ['sq', 'en']),
  market('am', ['hy', 'ru', 'en']),
  market('ad', ['ca', 'es', 'fr']),
  market('at', ['de', 'en']),
  market('az', ['az', 'ru', 'en']),
  market('ba', ['bm', 'hr', 'en']),
  market('bg', ['bg', 'en']),
  market('ch', ['de', 'fr', 'it', 'en']),
  market('cy', ['el', 'en']),
  market('cz', ['cs', 'en']),
  market('de', ['de', 'en']),
  market('ee', ['et', 'ru', 'en']),
  market('eg', ['eg-ar', 'en'], residence),
  market('es', ['es', 'ca', 'en']),
  market('fr', ['fr', 'en']),
  market('gb', ['en']),
  market('ge', ['ka', 'en']),
  market('gr', ['el', 'en']),
  market('hr', ['hr', 'en']),
  market('it', ['it', 'en']),
  market('jo', ['jo-ar', 'jo-en'], { ...residence, minimumAge: 19 }),
  market('kw', ['kw-ar', 'en'], residence),
  market('kz', ['kk', 'kz-ru'], { ...residence, minimumAge: 21 }),
  market('lb', ['lb-ar', 'en'], residence),
  market('lt', ['lt', 'en']),
  market('lv', ['lv', 'ru', 'en'], { minimumAge: 20 }),
  market('me', ['bm', 'en']),
  market('mk', ['mk', 'en']),
  market('pl', ['pl', 'en']),
  market('pt', ['pt', 'en']),
  market('ro', ['ro', 'en']),
  market('rs', ['bm', 'en']),
  market('ru', ['ru'], { minimumAge: 20 }),
  market('sa', ['sa-ar', 'en'], residence),
  market('sk', ['sk', 'en']),
  market('tr', ['tr', 'en']),
  market('uz', ['uz', 'ru']),
];

const byCountry = new Map(MARKETS.map((m) => [m.country, m]));

export const COUNTRY_CODES: readonly string[] = MARKETS.map((m) => m.country);

/** Finds a market by its country code, case-insensitively; undefined when the campaign does not run there. */
export function findMarket(country: string): Market | undefined {
  return byCountry.get(country.toLowerCase());
}

export function isMarketLocale(country: string, locale: string): boolean {
  return findMarket(country)?.locales.includes(locale as LocaleCode) ?? false;
}

/** The markets offering a locale, for choosing a country when only a language is known. */
export function marketsForLocale(locale: LocaleCode): Market[] {
  return MARKETS.filter((m) => m.locales.includes(locale));
}

/** Links the age gate shows; operators override the base with VITE_LEGAL_BASE_URL at build time. */
export function legalLinks(country: string, locale: LocaleCode, base = 'https://www.iqos.com') {
  const root = `${base.replace(/\/$/, '')}/${country.toLowerCase()}/${locale}`;
  return { dataProtection: `${root}/privacy-policy`, imprint: `${root}/imprint` };
}
