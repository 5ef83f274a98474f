import type { Locale, Market } from '@selfie-mosaic/campaign';
import { isScreenName, pagePathParts, screenPath } from '@selfie-mosaic/contract';
import type { i18n as I18n, TFunction } from 'i18next';
import { type ReactNode, Suspense, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useLocation } from 'wouter';
import { preloadWhenIdle } from '../lib/idle-preload';
import { rememberLocale } from '../lib/locale';
import { type ActiveLocale, LocaleContext } from '../lib/locale-context';
import { setDocumentLocale } from '../lib/page-meta';
import { sendPageview } from '../lib/pageview';
import { sessionStore } from '../lib/session';
import { ErrorBoundary } from './ErrorPages';
import { LanguageSwitch } from './LanguageSwitch';
import { PageShell } from './PageShell';
import { NEXT_SCREENS, SCREENS } from './screens';
import { UpdateBanner } from './UpdateBanner';

interface LocaleLayoutProps {
  locale: Locale;
  t: TFunction;
  i18n: I18n;
  market: Market;
  countryName: string;
  /** The screen. */
  children: ReactNode;
}

/**
 * The frame of every `/:country/:language/*` page: `lang`/`dir`, the locale cookie, the page view,
 * focus and scroll on a new screen, and the idle preload of the screens that can come next.
 */
export function LocaleLayout({ locale, t, i18n, market, countryName, children }: LocaleLayoutProps) {
  const [pathname] = useLocation();
  const { screen } = pagePathParts(pathname);
  const { country, minimumAge } = market;

  const active = useMemo<ActiveLocale>(
    () => ({
      locale,
      t,
      i18n,
      country,
      market,
      countryName,
      minimumAge,
      path: (name) => screenPath(country, locale.code, name),
    }),
    [locale, t, i18n, country, market, countryName, minimumAge],
  );

  // Before the first paint, so a right-to-left page is never drawn left to right first.
  useLayoutEffect(() => setDocumentLocale(locale.tag, locale.dir), [locale]);

  useEffect(() => {
    rememberLocale(locale.code);
    const session = sessionStore.getState();
    if (session.currentCountry !== country || session.currentLanguage !== locale.code) {
      sessionStore.update({ currentCountry: country, currentLanguage: locale.code });
    }
  }, [locale, country]);

  // After the paint; a plain fetch, so the start screen never downloads the HTTP client.
  useEffect(() => void sendPageview(country, locale.code, pathname), [country, locale.code, pathname]);

  // A new screen starts at the top, and screen readers hear it from its start: focus moves to <main>.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);

  useEffect(() => {
    if (!isScreenName(screen)) return;
    return preloadWhenIdle(NEXT_SCREENS[screen].map((name) => SCREENS[name]));
  }, [screen]);

  return (
    <LocaleContext.Provider value={active}>
      <PageShell t={t} languageSwitch={<LanguageSwitch />} banner={<UpdateBanner />}>
        <ErrorBoundary key={pathname} framed={false}>
          <Suspense fallback={<p className="loading">{t('meta.loading')}</p>}>{children}</Suspense>
        </ErrorBoundary>
      </PageShell>
    </LocaleContext.Provider>
  );
}
