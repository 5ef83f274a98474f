export { BRAND } from './brand.js';
export { getLocale, isLocaleCode, LOCALE_CODES, LOCALES, type Locale, type LocaleCode } from './locales.js';
export {
  COUNTRY_CODES,
  DEFAULT_MINIMUM_AGE,
  findMarket,
  isMarketLocale,
  legalLinks,
  MARKETS,
  type Market,
  marketsForLocale,
} from './markets.js';
export { ART_VARIANTS, type ArtVariant, type ArtVariantName, PORTRAIT_COLOURS } from './palette.js';
