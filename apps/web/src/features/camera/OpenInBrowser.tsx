import { useId } from 'react';
import { androidIntentUrl, mobilePlatform } from '../../lib/in-app-browser';
import { useLocale } from '../../lib/locale-context';
import { buttonClass } from '../../lib/ui/Button';
import './open-in-browser.css';

/**
 * The way out of an in-app browser, beside the file picker (docs/product.md#photo). Android: a link that
 * hands this page to the default browser. iOS lets no page do that: a short picture of the app's menu
 * shows where "Open in browser" is. The page opened there starts at the age gate, as any new visit does.
 */
export function OpenInBrowser() {
  const { t } = useLocale();
  const headingId = useId();
  const android = mobilePlatform() === 'android';
  return (
    <section className="open-in-browser" aria-labelledby={headingId} data-testid="open-in-browser">
      <h2 id={headingId} className="open-in-browser__title">
        {t('photo.inApp.title')}
      </h2>
      {android ? (
        <a
          className={buttonClass('ghost')}
          href={androidIntentUrl(window.location.href)}
          data-testid="open-in-browser-link"
        >
          {t('photo.inApp.openButton')}
        </a>
      ) : (
        <div className="open-in-browser__steps">
          <MenuPicture label={t('photo.inApp.illustration')} item={t('photo.inApp.menuItem')} />
          <ol>
            <li>{t('photo.inApp.iosStepMenu')}</li>
            <li>{t('photo.inApp.iosStepOpen')}</li>
          </ol>
        </div>
      )}
    </section>
  );
}

/** The app's top bar with its ••• button, and the menu it opens with "Open in browser" highlighted. */
function MenuPicture({ label, item }: { label: string; item: string }) {
  return (
    <div className="menu-picture" role="img" aria-label={label}>
      <div className="menu-picture__bar" aria-hidden="true">
        <span className="menu-picture__close">×</span>
        <span className="menu-picture__url" />
        <span className="menu-picture__dots">
          •••
          <svg className="menu-picture__tap" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
            <circle cx="20" cy="20" r="18" fill="none" stroke="currentColor" strokeWidth="2.5" />
          </svg>
        </span>
      </div>
      <div className="menu-picture__menu" aria-hidden="true">
        <span className="menu-picture__line" />
        <span className="menu-picture__item">
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M15.5 8.5l-2.2 4.8-4.8 2.2 2.2-4.8z" fill="currentColor" />
          </svg>
          {item}
        </span>
        <span className="menu-picture__line" />
      </div>
    </div>
  );
}
