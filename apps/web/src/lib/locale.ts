import { getLocale, type LocaleCode, type Market } from '@selfie-mosaic/campaign';
import { LOCALE_COOKIE } from '@selfie-mosaic/contract';
import { CAMPAIGN_LOCALES, campaign, findMarket } from './campaign';
import { readCookie } from './cookies';

/** Browser tags that name a locale under another code (Bosnian–Montenegrin is read for Serbian Latin too). */
const TAG_ALIASES: Record<string, LocaleCode> = { cnr: 'bm', 'sr-latn': 'bm', 'sr-me': 'bm', sh: 'bm' };

const lower = (value: string) => value.toLowerCase();

/**
 * The locale a browser language asks for, among `candidates`: the exact tag first (`ar-AE` → ae-ar),
 * then the same language, preferring a locale without a region (`en-US` → en, not jo-en).
 */
export function matchBrowserLanguage(language: string, candidates: readonly LocaleCode[]): LocaleCode | undefined {
  const tag = lower(language);
  const alias = TAG_ALIASES[tag] ?? TAG_ALIASES[tag.split('-')[0] ?? ''];
  if (alias && candidates.includes(alias)) return alias;
  const locales = candidates.map(getLocale);
  const exact = locales.find((locale) => lower(locale.tag) === tag);
  if (exact) return exact.code;
  const base = tag.split('-')[0];
  const sameLanguage = locales.filter((locale) => lower(locale.tag).split('-')[0] === base);
  return (sameLanguage.find((locale) => !locale.tag.includes('-')) ?? sameLanguage[0])?.code;
}

export interface LocaleSources {
  route?: string | undefined;
  cookie?: string | null;
  languages?: readonly string[];
}

/**
 * Route → `locale` cookie → browser languages → en (docs/product.md#locales-and-markets), within the allowed locales.
 */
export function resolveLocale(sources: LocaleSources, allowed: readonly LocaleCode[] = CAMPAIGN_LOCALES) {
  const isAllowed = (code: string | null | undefined): code is LocaleCode =>
    !!code && (allowed as readonly string[]).includes(code);
  if (isAllowed(sources.route)) return sources.route;
  if (isAllowed(sources.cookie)) return sources.cookie;
  for (const language of sources.languages ?? []) {
    const match = matchBrowserLanguage(language, allowed);
    if (match) return match;
  }
  if (isAllowed('en')) return 'en';
  return allowed[0] ?? 'en';
}

/**
 * The market to send a visitor to when only the locale is known: the locale's own country, then a
 * region named by the browser, then the market where the locale is the main language.
 */
export function marketForLocale(code: LocaleCode, languages: readonly string[] = []): Market {
  const own = getLocale(code).country;
  const byOwn = own ? findMarket(own) : undefined;
  if (byOwn) return byOwn;
  const offering = campaign.markets.filter((market) => market.locales.includes(code));
  for (const language of languages) {
    const region = language.split('-')[1];
    const match = region && offering.find((market) => market.country === lower(region));
    if (match) return match;
  }
  const home =
    offering.find((market) => market.locales[0] === code && market.country === code) ??
    offering.find((market) => market.locales[0] === code) ??
    offering[0];
  return home ?? findMarket('gb') ?? (campaign.markets[0] as Market);
}

export function browserLanguages(): readonly string[] {
  const nav = globalThis.navigator;
  if (!nav) return [];
  return nav.languages?.length ? nav.languages : nav.language ? [nav.language] : [];
}

export function localeCookie(): string | null {
  return readCookie(LOCALE_COOKIE.name);
}

/** Remembers the visitor's locale for 365 days (docs/product.md#locales-and-markets). */
export function rememberLocale(code: LocaleCode): void {
  const maxAge = LOCALE_COOKIE.maxAgeDays * 24 * 60 * 60;
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie write is all the locale needs.
  document.cookie = `${LOCALE_COOKIE.name}=${encodeURIComponent(code)}; Max-Age=${maxAge}; Path=${LOCALE_COOKIE.path}; SameSite=${LOCALE_COOKIE.sameSite}`;
}
