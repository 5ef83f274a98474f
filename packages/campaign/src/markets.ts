import type { LocaleCode } from './locales.js';
import type { Campaign, Market } from './schema.js';

type WithMarkets = Pick<Campaign, 'markets'>;

/** Finds a market by its country code, case-insensitively; undefined when the campaign does not run there. */
export function findMarket(campaign: WithMarkets, country: string): Market | undefined {
  const code = country.toLowerCase();
  return campaign.markets.find((market) => market.country === code);
}

/** The markets offering a locale, for choosing a country when only a language is known. */
export function marketsForLocale(campaign: WithMarkets, locale: LocaleCode): Market[] {
  return campaign.markets.filter((market) => market.locales.includes(locale));
}

export interface LegalLinks {
  dataProtection: string;
  imprint: string;
  terms?: string;
}

/** The market's legal links with `{country}` and `{locale}` filled in. */
export function legalLinks(market: Market, locale: LocaleCode): LegalLinks {
  const fill = (url: string) => url.replaceAll('{country}', market.country).replaceAll('{locale}', locale);
  const { dataProtection, imprint, terms } = market.legal;
  return { dataProtection: fill(dataProtection), imprint: fill(imprint), ...(terms ? { terms: fill(terms) } : {}) };
}
