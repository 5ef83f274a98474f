import { isLocaleCode, type LocaleCode, type Market } from '@selfie-mosaic/campaign';
import { FIRST_SCREEN, isScreenName, marketPath, screenPath } from '@selfie-mosaic/contract';
import { use, useEffect } from 'react';
import { Redirect, useParams } from 'wouter';
import { findMarket } from '../lib/campaign';
import { countryName } from '../lib/country-names';
import { preloadFontsFor } from '../lib/fonts';
import { loadLocale } from '../lib/i18n';
import { NotFoundPage, NotFoundScreen } from './ErrorPages';
import { LocaleLayout } from './LocaleLayout';
import { Screen } from './Screen';
import { firstScreenReady } from './warm-up';

/**
 * Validates `/:country/:language/*`, sends any other spelling of a page (`/GB/EN/Start`, `/de/de`)
 * to its canonical lower-case address, then renders the layout once the locale's copy has loaded.
 */
export function LocaleRoute() {
  const params = useParams<{ country: string; language: string; '*'?: string }>();
  const market = findMarket(params.country);
  const language = params.language.toLowerCase();
  if (!market || !isLocaleCode(language)) return <NotFoundPage />;
  // A language the market does not offer: the country landing picks one it does.
  if (!market.locales.includes(language)) return <Redirect to={marketPath(market.country)} replace />;
  const rest = (params['*'] ?? '').replace(/\/$/, '');
  const screen = rest.toLowerCase() || FIRST_SCREEN;
  const canonical = screenPath(market.country, language, screen);
  if (canonical !== screenPath(params.country, params.language, rest)) return <Redirect to={canonical} replace />;
  return <LoadedLocale market={market} code={language} screen={screen} />;
}

function LoadedLocale({ market, code, screen }: { market: Market; code: LocaleCode; screen: string }) {
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
    >
      {/* Keyed by screen: moving between screens mounts the next one instead of keeping the last. */}
      {isScreenName(screen) ? <Screen key={screen} name={screen} /> : <NotFoundScreen />}
    </LocaleLayout>
  );
}
