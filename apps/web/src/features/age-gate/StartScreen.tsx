import { legalLinks } from '@selfie-mosaic/campaign';
import { useLocation } from 'wouter';
import { ageCopy, useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { sessionStore } from '../../lib/session';
import { Button } from '../../lib/ui/Button';
import { MosaicMark } from '../../lib/ui/MosaicMark';

/** Screen 1: the age gate (docs/product.md#start). Yes goes on to the terms, No to the exit page. */
export default function StartScreen() {
  const { t, locale, country, market, countryName, minimumAge, path } = useLocale();
  const [, navigate] = useLocation();
  usePageMeta(t('start.title'));
  const links = legalLinks(market, locale.code);

  const answer = (value: 'yes' | 'no') => {
    sessionStore.update({ questionAnswer: value });
    if (value === 'no') {
      // A "no" is recorded too (no consent, no personal data); the visitor is not kept waiting for it.
      void import('../../lib/consent')
        .then(({ submitConsent }) =>
          submitConsent({
            country_iso: country,
            language: locale.code,
            question_answer: 'no',
            consent_given: false,
            ip_address: null,
            user_session_id: sessionStore.getState().userSessionId,
          }),
        )
        .catch(() => undefined);
    }
    navigate(path(value === 'yes' ? 'curious' : 'exit'));
  };

  return (
    <div className="screen start">
      <section className="hero" aria-labelledby="age-question">
        <MosaicMark columns={12} rows={5} seed={3} animated className="hero__mosaic" />
        <p className="eyebrow">{t('start.eyebrow')}</p>
        <h1 id="age-question" className="display">
          {ageCopy(t, minimumAge, 'start.question')}
        </h1>
        {market.confirmResidence && (
          <p className="lead">{ageCopy(t, minimumAge, 'start.residence', { country: countryName })}</p>
        )}
        <div className="actions actions--split">
          <Button onClick={() => answer('yes')} testId="age-yes">
            {t('start.yes')}
          </Button>
          <Button variant="ghost" onClick={() => answer('no')} testId="age-no">
            {t('start.no')}
          </Button>
        </div>
      </section>
      <section className="card care" aria-labelledby="we-care">
        <h2 id="we-care" className="heading">
          {t('start.weCareHeading')}
        </h2>
        <p>{t('start.disclaimer')}</p>
        <p className="care__warning">{t('warning.full', { country: countryName })}</p>
        <nav className="legal-links" aria-label={t('start.weCareHeading')}>
          <a href={links.dataProtection} target="_blank" rel="noopener noreferrer">
            {t('start.dataProtection')}
          </a>
          <a href={links.imprint} target="_blank" rel="noopener noreferrer">
            {t('start.imprint')}
          </a>
        </nav>
      </section>
    </div>
  );
}
