import { isLocaleCode, type LocaleCode } from '@selfie-mosaic/campaign';
import type { TFunction } from 'i18next';
import { Component, type ReactNode, Suspense, use, useEffect, useState } from 'react';
import { campaign, findMarket } from '../lib/campaign';
import { isChunkLoadError, reloadForChunkError } from '../lib/chunk-reload';
import { type LoadedLocale, loadLocale } from '../lib/i18n';
import { browserLanguages, localeCookie, resolveLocale } from '../lib/locale';
import { useLocale } from '../lib/locale-context';
import { setDocumentLocale, setPageMeta } from '../lib/page-meta';
import { MosaicMark } from '../lib/ui/MosaicMark';
import { PageShell } from './PageShell';

/** The locale for a page outside a valid locale route: the URL's if it names one, else the usual order. */
function fallbackLocale(pathname: string): LocaleCode {
  const [, country = '', language] = pathname.split('/');
  const market = findMarket(country);
  const route = market && isLocaleCode(language) && market.locales.includes(language) ? language : undefined;
  return resolveLocale({ route, cookie: localeCookie(), languages: browserLanguages() });
}

type ErrorKind = 'notFound' | 'internal';

function ErrorBody({ kind, t }: { kind: ErrorKind; t: TFunction }) {
  const title = t(kind === 'notFound' ? 'errorPage.notFoundTitle' : 'errorPage.internalTitle');
  useEffect(() => setPageMeta(`${title} | ${t('meta.titleSuffix')}`, t('meta.description')), [title, t]);
  return (
    <section className="screen screen--centered">
      <MosaicMark
        columns={6}
        rows={6}
        seed={kind === 'notFound' ? 13 : 17}
        palette="stone"
        className="screen__emblem"
      />
      <p className="eyebrow" aria-hidden="true">
        {kind === 'notFound' ? '404' : '500'}
      </p>
      <h1 className="display">{title}</h1>
      <p className="lead">{t(kind === 'notFound' ? 'errorPage.notFoundBody' : 'errorPage.internalBody')}</p>
      <div className="actions">
        {kind === 'internal' && (
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t('errorPage.reload')}
          </button>
        )}
        <a className={kind === 'internal' ? 'button button--ghost' : 'button'} href="/">
          {t('errorPage.home')}
        </a>
      </div>
    </section>
  );
}

/** An error page with its own frame, for paths outside a working locale route. */
function FramedError({ kind }: { kind: ErrorKind }) {
  const copy = use(errorPageCopy(fallbackLocale(window.location.pathname)));
  useEffect(() => {
    if (copy) setDocumentLocale(copy.locale.tag, copy.locale.dir);
  }, [copy]);
  if (!copy) return <Unreachable />;
  return (
    <PageShell t={copy.t}>
      <ErrorBody kind={kind} t={copy.t} />
    </PageShell>
  );
}

const copies = new Map<LocaleCode, Promise<LoadedLocale | null>>();

/** The visitor's copy, else English, else nothing: the error page must render even offline. */
function errorPageCopy(code: LocaleCode): Promise<LoadedLocale | null> {
  let pending = copies.get(code);
  if (!pending) {
    pending = loadLocale(code)
      .catch(() => loadLocale('en'))
      .catch(() => null);
    copies.set(code, pending);
  }
  return pending;
}

/** No copy could be fetched at all (offline): the brand and a way to try again, nothing to translate. */
function Unreachable() {
  return (
    <main className="screen screen--centered">
      <h1 className="display">{campaign.brand.experienceName}</h1>
      <div className="actions">
        <button type="button" className="button" onClick={() => window.location.reload()} aria-label="Reload">
          ↻
        </button>
      </div>
    </main>
  );
}

/** Inside a locale route's frame: only the content. */
function FramedByLayout({ kind }: { kind: ErrorKind }) {
  const { t } = useLocale();
  return <ErrorBody kind={kind} t={t} />;
}

function ErrorContent({ kind, framed }: { kind: ErrorKind; framed: boolean }) {
  if (!framed) return <FramedByLayout kind={kind} />;
  // Its own boundary: the error page may render above the app's Suspense, while its copy loads.
  return (
    <Suspense fallback={null}>
      <FramedError kind={kind} />
    </Suspense>
  );
}

/** Unknown paths (docs/product.md#error-pages): "Page Not Found". */
export function NotFoundPage({ framed = true }: { framed?: boolean }) {
  return <ErrorContent kind="notFound" framed={framed} />;
}

/** A 404 inside a locale route, drawn in that locale's frame. */
export function NotFoundScreen() {
  return <NotFoundPage framed={false} />;
}

/** What crawlers see instead of an error page: the experience's name and description, no error. */
function CrawlerFallback() {
  useEffect(() => setPageMeta(campaign.brand.experienceName, campaign.brand.description), []);
  return (
    <main className="screen screen--centered">
      <h1 className="display">{campaign.brand.experienceName}</h1>
      <p className="lead">{campaign.brand.description}</p>
    </main>
  );
}

interface ErrorBoundaryProps {
  framed: boolean;
  children: ReactNode;
}

/**
 * Catches render errors and failed screen chunks. A chunk that fails to load (a new deployment
 * replaced it) reloads the page once; anything else shows Internal Server Error, except to crawlers.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <ErrorFallback error={this.state.error} framed={this.props.framed} />;
  }
}

function ErrorFallback({ error, framed }: { error: unknown; framed: boolean }) {
  const [crawler, setCrawler] = useState<boolean | null>(null);
  const reloading = isChunkLoadError(error) && reloadForChunkError();

  useEffect(() => {
    // isbot is only needed on this rare path, so it stays out of the start bundle.
    import('isbot').then(
      ({ isbot }) => setCrawler(isbot(navigator.userAgent)),
      () => setCrawler(false),
    );
  }, []);

  if (reloading || crawler === null) return null;
  if (crawler) return <CrawlerFallback />;
  return <ErrorContent kind="internal" framed={framed} />;
}
