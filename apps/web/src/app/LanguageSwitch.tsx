import { getLocale } from '@selfie-mosaic/campaign';
import { pagePathParts, screenPath } from '@selfie-mosaic/contract';
import { useLocation } from 'wouter';
import { findMarket } from '../lib/campaign';
import { useLocale } from '../lib/locale-context';

/** The market's languages; only shown where a market offers more than one. */
export function LanguageSwitch() {
  const { locale, country, t } = useLocale();
  const [pathname, navigate] = useLocation();
  const locales = findMarket(country)?.locales ?? [];
  if (locales.length < 2) return null;
  const { screen } = pagePathParts(pathname);
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('meta.languageLabel')}</span>
      <select value={locale.code} onChange={(event) => navigate(screenPath(country, event.target.value, screen))}>
        {locales.map((code) => {
          const option = getLocale(code);
          return (
            <option key={code} value={code} lang={option.tag}>
              {option.name}
            </option>
          );
        })}
      </select>
    </label>
  );
}
