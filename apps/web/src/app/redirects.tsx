import { screenPath } from '@selfie-mosaic/contract';
import { Redirect, useParams } from 'wouter';
import { findMarket } from '../lib/campaign';
import { browserLanguages, localeCookie, marketForLocale, resolveLocale } from '../lib/locale';
import { NotFoundPage } from './ErrorPages';

/** `/`: the locale from cookie or browser languages (else en), in the market that fits it best. */
export function RootRedirect() {
  const languages = browserLanguages();
  const code = resolveLocale({ cookie: localeCookie(), languages });
  const market = marketForLocale(code, languages);
  return <Redirect to={screenPath(market.country, code)} replace />;
}

/** `/:country`: a locale of that market by cookie, browser languages, en, else the market's first. */
export function CountryRedirect() {
  const market = findMarket(useParams<{ country: string }>().country);
  if (!market) return <NotFoundPage />;
  const code = resolveLocale({ cookie: localeCookie(), languages: browserLanguages() }, market.locales);
  return <Redirect to={screenPath(market.country, code)} replace />;
}
