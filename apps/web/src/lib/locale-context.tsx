import type { Locale, Market } from '@selfie-mosaic/campaign';
import type { ScreenName } from '@selfie-mosaic/contract';
import type { i18n as I18n, TFunction } from 'i18next';
import { createContext, useContext } from 'react';

export interface ActiveLocale {
  locale: Locale;
  /** Translates with this locale, whatever other tabs or routes use. */
  t: TFunction;
  /** The instance behind `t`, for copy with a link inside it (`Trans`). */
  i18n: I18n;
  country: string;
  /** The campaign's market: its legal links, residence question and art variant. */
  market: Market;
  countryName: string;
  /** The market's minimum age, the same in each of its languages; null where it asks for "legal age". */
  minimumAge: number | null;
  /** Builds a path under this market and locale: `path('photo')` → `/de/de/photo`. */
  path(screen: ScreenName): string;
}

export const LocaleContext = createContext<ActiveLocale | null>(null);

export function useLocale(): ActiveLocale {
  const active = useContext(LocaleContext);
  if (!active) throw new Error('useLocale must be used inside a locale route');
  return active;
}

/** Age interpolation: the `…LegalAge` variant where the market states no number. */
export function ageCopy(
  t: TFunction,
  minimumAge: number | null,
  key: string,
  values: Record<string, string> = {},
): string {
  if (minimumAge === null) return t(`${key}LegalAge`, values);
  return t(key, { ...values, age: minimumAge });
}
