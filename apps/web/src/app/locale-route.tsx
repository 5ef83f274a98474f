import { findMarket, isLocaleCode, type LocaleCode, type Market } from '@selfie-mosaic/campaign';
import { use, useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { countryName } from '../lib/country-names';
import { preloadFontsFor } from '../lib/fonts';
import { loadLocale } from '../lib/i18n';
import { NotFoundPage } from './ErrorPages';
import { LocaleLayout } from './LocaleLayout';
import { firstScreenReady } from './warm-up';

/** Validates `/:country/:language/*`, then renders the layout once the locale's copy has loaded. */
export function LocaleRoute() {
  const { country = '', language } = useParams();
  const market = findMarket(country);
  if (!market || !isLocaleCode(language)) return <NotFoundPage />;
  const rest = window.location.pathname.split('/').slice(3).join('/') || 'start';
  if (country !== market.country) return <Navigate to={`/${market.country}/${language}/${rest}`} replace />;
  // A language the market does not offer: the country landing picks one it does.
  if (!market.locales.includes(language)) return <Navigate to={`/${market.country}`} replace />;
  return <LoadedLocale market={market} code={language} />;
}

function LoadedLocale({ market, code }: { market: Market; code: LocaleCode }) {
  const { locale, t, i18n, countryNames } = use(loadLocale(code));
  use(firstScreenReady());
  useEffect(() => void preloadFontsFor(locale), [locale]);
  return (
    <LocaleLayout
      locale={locale}
      t={t}
      i18n={i18n}
      market={market}
      countryName={countryName(countryNames, market.country)}
    />
  );
}
