import { artworkDownloadUrl } from '../../lib/job-api';
import { useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { sendEvent } from '../../lib/pageview';
import { useSession } from '../../lib/session';
import { ArtworkImage } from '../../lib/ui/ArtworkImage';
import { StartOverLink } from '../../lib/ui/StartOverLink';

/** The artwork on its own, for browsers that cannot save a download: press and hold, or the button. */
export default function DownloadScreen() {
  const { t, country, locale } = useLocale();
  const { processedImage } = useSession();
  usePageMeta(t('download.title'));

  if (!processedImage) {
    return (
      <section className="screen screen--centered download" aria-labelledby="download-heading">
        <h1 id="download-heading" className="display">
          {t('download.heading')}
        </h1>
        <p className="lead">{t('download.missing')}</p>
        <StartOverLink label={t('download.backToStart')} />
      </section>
    );
  }

  return (
    <section className="screen download" aria-labelledby="download-heading">
      <ArtworkImage src={processedImage} alt={t('result.artworkAlt')} />
      <h1 id="download-heading" className="display">
        {t('download.heading')}
      </h1>
      <p className="lead">{t('download.body')}</p>
      <div className="actions">
        <a
          className="button"
          href={artworkDownloadUrl(processedImage)}
          download=""
          onClick={() => void sendEvent('download', country, locale.code)}
          data-testid="download-button"
        >
          {t('download.button')}
        </a>
      </div>
    </section>
  );
}
