import type { ArtworkFormat } from '@selfie-mosaic/contract';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { formatFromSearch, formatUrl } from '../../lib/artwork-format';
import { artworkDownloadUrl } from '../../lib/job-api';
import { useLocale } from '../../lib/locale-context';
import { usePageMeta } from '../../lib/page-meta';
import { sendEvent } from '../../lib/pageview';
import { useSession } from '../../lib/session';
import { ArtworkImage } from '../../lib/ui/ArtworkImage';
import { FormatSwitch } from '../../lib/ui/FormatSwitch';
import { StartOverLink } from '../../lib/ui/StartOverLink';

/** The artwork on its own, for browsers that cannot save a download: press and hold, or the button. */
export default function DownloadScreen() {
  const { t, country, locale } = useLocale();
  const { processedImage, storyImage } = useSession();
  // The format chosen on the result screen comes along in the address; the switch changes it here too.
  const [format, setFormat] = useState<ArtworkFormat>(formatFromSearch(useSearch()));
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

  const imageUrl = formatUrl({ processedImage, storyImage }, format);
  const shown = imageUrl === processedImage ? 'post' : 'story';
  return (
    <section className="screen download" aria-labelledby="download-heading">
      <ArtworkImage
        src={imageUrl}
        format={shown}
        alt={t(shown === 'story' ? 'result.storyArtworkAlt' : 'result.artworkAlt')}
      />
      {storyImage && <FormatSwitch t={t} value={shown} onChange={setFormat} />}
      <h1 id="download-heading" className="display">
        {t('download.heading')}
      </h1>
      <p className="lead">{t('download.body')}</p>
      <div className="actions">
        <a
          className="button"
          href={artworkDownloadUrl(imageUrl)}
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
