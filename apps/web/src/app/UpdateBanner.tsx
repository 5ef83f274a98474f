import { useEffect, useState } from 'react';
import { preloadWhenIdle } from '../lib/idle-preload';
import { useLocale } from '../lib/locale-context';

/** Offers a reload once a newer build is deployed, instead of reloading under the visitor's feet. */
export function UpdateBanner() {
  const { t } = useLocale();
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    // Nothing to offer on the first screen's paint: the checks start once the page is idle.
    let stopWatching: (() => void) | undefined;
    let unmounted = false;
    const cancelIdle = preloadWhenIdle([
      () =>
        import('../lib/build-check').then(({ watchForNewBuild }) => {
          if (!unmounted) stopWatching = watchForNewBuild(() => setAvailable(true));
        }),
    ]);
    return () => {
      unmounted = true;
      cancelIdle();
      stopWatching?.();
    };
  }, []);
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
