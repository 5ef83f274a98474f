import type { Locale } from '@selfie-mosaic/campaign';
import type { i18n as I18n, TFunction } from 'i18next';
import { createContext, useContext } from 'react';

export interface ActiveLocale {
  locale: Locale;
  /** Translates with this locale, whatever other tabs or routes use. */
  t: TFunction;
  /** The instance behind `t`, for copy with a link inside it (`Trans`). */
  i18n: I18n;
  country: string;
  countryName: string;
  /** Builds a path under this market and locale: `path('photo')` → `/de/de/photo`. */
  path(screen: string): string;
}

export const LocaleContext = createContext<ActiveLocale | null>(null);

export function useLocale(): ActiveLocale {
  const active = useContext(LocaleContext);
  if (!active) throw new Error('useLocale must be used inside a locale route');
  return active;
}

/** Age interpolation: the `…LegalAge` variant where the locale's wording states no number. */
export function ageCopy(t: TFunction, locale: Locale, key: string, values: Record<string, string> = {}): string {
  if (locale.minimumAge === null) return t(`${key}LegalAge`, values);
  return t(key, { ...values, age: locale.minimumAge });
}
