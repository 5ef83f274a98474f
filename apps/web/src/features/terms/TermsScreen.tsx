import { useLocation } from 'wouter';
import { useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { Button } from '../../lib/ui/Button';

/** Screen 4: the terms and conditions, headed by the question whether we may use the photo. */
export default function TermsScreen() {
  const { t, path } = useLocale();
  const [, navigate] = useLocation();
  usePageMeta(t('terms.title'));
  return (
    <article className="screen terms" aria-labelledby="terms-heading">
      <p className="eyebrow">{t('terms.title')}</p>
      <h1 id="terms-heading" className="display">
        {t('terms.heading')}
      </h1>
      <p className="lead">{t('terms.intro')}</p>
      <div className="card terms__body">
        <p>{t('terms.use')}</p>
        <p>{t('terms.retention')}</p>
        <p>{t('terms.rights')}</p>
        <p>{t('terms.noIp')}</p>
      </div>
      <div className="actions">
        <Button variant="ghost" onClick={() => navigate(path('curious'))}>
          {t('terms.back')}
        </Button>
      </div>
    </article>
  );
}
