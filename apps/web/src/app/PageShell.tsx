import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Wordmark } from '../lib/ui/Wordmark';

interface PageShellProps {
  t: TFunction;
  children: ReactNode;
  /** The language switch of the market, when the page belongs to one. */
  languageSwitch?: ReactNode;
  banner?: ReactNode;
}

/** Every page: skip link, the health warning above and below, the brand header. */
export function PageShell({ t, children, languageSwitch, banner }: PageShellProps) {
  return (
    <div className="page">
      <a className="skip-link" href="#main">
        {t('meta.skipToContent')}
      </a>
      <header className="site-top">
        <p className="warning-band">{t('warning.short')}</p>
        {banner}
        <div className="site-header">
          <Wordmark />
          {languageSwitch}
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <p className="site-footer__warning">{t('warning.footer')}</p>
      </footer>
    </div>
  );
}
