import { useEffect, useState } from 'react';
import { watchForNewBuild } from '../lib/build-check';
import { useLocale } from '../lib/locale-context';

/** Offers a reload once a newer build is deployed, instead of reloading under the visitor's feet. */
export function UpdateBanner() {
  const { t } = useLocale();
  const [available, setAvailable] = useState(false);
  useEffect(() => watchForNewBuild(() => setAvailable(true)), []);
  if (!available) return null;
  return (
    <div className="update-banner" role="status">
      <span>{t('update.available')}</span>
      <button type="button" className="button button--small" onClick={() => window.location.reload()}>
        {t('update.reload')}
      </button>
    </div>
  );
}
