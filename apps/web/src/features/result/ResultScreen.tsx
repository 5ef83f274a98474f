import {
  ARTWORK_FORMATS,
  CREATION_NOTICE_SECONDS,
  progressForPosition,
  SHARE_FORMATS,
  type ShareFormat,
} from '@selfie-mosaic/contract';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { FORMAT_PARAM, formatUrl } from '../../lib/artwork-format';
import { useOfferPhone } from '../../lib/handoff/offer-phone';
import { isInAppBrowser } from '../../lib/in-app-browser';
import { jobSession } from '../../lib/job';
import { artworkDownloadUrl } from '../../lib/job-api';
import { useLocale } from '../../lib/locale-context';
import { messageText } from '../../lib/messages';
import { usePageMeta } from '../../lib/page-meta';
import { sendEvent } from '../../lib/pageview';
import { RETAKE_STATE } from '../../lib/retake';
import { useSession } from '../../lib/session';
import { Button } from '../../lib/ui/Button';
import { FormatSwitch } from '../../lib/ui/FormatSwitch';
import { MosaicMark } from '../../lib/ui/MosaicMark';
import { ClipDownload, saveClip } from './clip/ClipDownload';
import { ClipPreview } from './clip/ClipPreview';
import { useClipOffer, useStoryClip } from './clip/use-story-clip';
import { QueueProgress } from './QueueProgress';
import { RevealedArtwork } from './Reveal';
import { canShareFiles, fetchArtworkFiles, shareArtwork } from './share';

/** "Get it on your phone" loads with its QR library only where it is offered. */
const ArtworkHandoff = lazy(() => import('../../lib/handoff/ArtworkHandoff'));

/** Screen 6: the queue while the artwork is made, then the artwork with download, share and restart. */
export default function ResultScreen() {
  const { t, path } = useLocale();
  const [, navigate] = useLocation();
  const session = useSession();
  const [checkedStoredJob, setCheckedStoredJob] = useState(false);
  usePageMeta(t('result.title'));

  useEffect(() => {
    const { currentJobId, processedImage, error } = jobSession.store.getState();
    // Back after a reload: the saved job is checked before it is trusted (docs/product.md#returning-to-a-saved-job). A
    // failure seen in this page is shown as it is; one from before the reload is not saved, so the check finds it.
    if (currentJobId && !processedImage && !error && !jobSession.monitoring) {
      void jobSession.validateStoredJob().finally(() => setCheckedStoredJob(true));
    } else {
      setCheckedStoredJob(true);
    }
  }, []);

  if (!session.currentJobId && !session.processedImage) {
    return <Redirect to={path(session.consentGiven ? 'photo' : 'start')} replace />;
  }

  const restart = () => {
    jobSession.reset();
    navigate(path('start'));
  };
  const newPhoto = () => {
    jobSession.clearPhotoData();
    navigate(path('photo'), { state: RETAKE_STATE });
  };

  if (session.processedImage) {
    return (
      <Artwork
        images={{ processedImage: session.processedImage, storyImage: session.storyImage }}
        planUrl={session.layingPlan}
        onRestart={restart}
      />
    );
  }

  if (session.error && !session.isProcessing) {
    return (
      <section className="screen screen--centered result" aria-labelledby="result-heading">
        <h1 id="result-heading" className="display">
          {t('result.failedHeading')}
        </h1>
        <p className="lead" role="alert">
          {messageText(t, session.error)}
        </p>
        <div className="actions">
          <Button onClick={newPhoto}>{t('result.takeNewPhoto')}</Button>
        </div>
      </section>
    );
  }

  return (
    <section className="screen screen--centered result" aria-labelledby="result-heading" aria-busy="true">
      <MosaicMark
        columns={8}
        rows={10}
        seed={31}
        animated
        progress={progressForPosition(session.queueStatus?.queue_position ?? 0)}
        className="result__weaving"
      />
      <h1 id="result-heading" className="display">
        {t('result.creatingHeading')}
      </h1>
      <p className="lead">{t('result.creatingNote', { count: CREATION_NOTICE_SECONDS })}</p>
      {checkedStoredJob && (
        <QueueProgress
          t={t}
          position={session.queueStatus?.queue_position ?? 0}
          serverLoad={session.serverLoadDetected}
          etaSeconds={session.queueStatus?.eta_seconds}
        />
      )}
    </section>
  );
}

/**
 * On a computer, the artwork made here can go to the phone too: not when it was made on the phone (the
 * computer followed the phone's photo), and never on the phone itself.
 */
function PhoneOffer() {
  const offerPhone = useOfferPhone();
  const { currentJobId, handoffId, handoffRole } = useSession();
  const fromPhone = handoffRole === 'desktop' && handoffId !== null;
  if (!offerPhone || fromPhone || !currentJobId) return null;
  return (
    <Suspense fallback={null}>
      <ArtworkHandoff jobId={currentJobId} />
    </Suspense>
  );
}

interface ArtworkProps {
  images: { processedImage: string; storyImage: string | null };
  /** The laying plan's URL, for the reveal. */
  planUrl: string | null;
  onRestart: () => void;
}

function Artwork({ images, planUrl, onRestart }: ArtworkProps) {
  const { t, path, country, locale } = useLocale();
  // Download and share act on the chosen format: the 4:5 post, the 9:16 story version or the story clip.
  const [format, setFormat] = useState<ShareFormat>('post');
  const imageUrl = formatUrl(images, format);
  const [files, setFiles] = useState<ReadonlyMap<string, File>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const shareable = canShareFiles();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The artwork replaces the queue in place: move focus to its heading so screen readers hear it.
  useEffect(() => headingRef.current?.focus(), []);
  // In-app browsers ignore downloads: the download page lets the visitor press and hold the image.
  const inAppBrowser = isInAppBrowser(navigator.userAgent);
  // The clip is offered where the browser can encode it, and made (in the browser) when first chosen.
  const clipCodec = useClipOffer({ planUrl, storyUrl: images.storyImage, inAppBrowser, shareable });
  const clip = useStoryClip({ chosen: format === 'clip', codec: clipCodec, planUrl, storyUrl: images.storyImage });
  const file =
    format === 'clip' ? (clip.state.status === 'ready' ? clip.state.file : null) : (files.get(imageUrl) ?? null);
  const downloadHref = inAppBrowser
    ? `${path('download')}${format === 'story' ? `?${FORMAT_PARAM}=story` : ''}`
    : artworkDownloadUrl(imageUrl);
  // Downloads and shares are the funnel's last steps (docs/product.md#the-funnel); the download page counts its own.
  const counted = (event: 'download' | 'share') => void sendEvent(event, country, locale.code);

  const { processedImage, storyImage } = images;
  useEffect(() => {
    if (!shareable) return;
    let cancelled = false;
    // Both pictures ahead of the tap, so either format shares at once when chosen.
    void fetchArtworkFiles({ post: processedImage, story: storyImage }).then(
      (fetched) => !cancelled && setFiles(fetched),
    );
    return () => {
      cancelled = true;
    };
  }, [processedImage, storyImage, shareable]);

  const share = async () => {
    setProblem(null);
    const outcome = await shareArtwork(file, imageUrl);
    if (outcome === 'shared') counted('share');
    if (outcome === 'unsupported') {
      counted('download');
      if (format === 'clip') saveClip(clip.state);
      else window.location.assign(artworkDownloadUrl(imageUrl));
    }
  };

  return (
    <section className="screen result result--done" aria-labelledby="result-heading">
      {format === 'clip' ? (
        <ClipPreview t={t} state={clip.state} storyUrl={imageUrl} lang={locale.tag} onRetry={clip.retry} />
      ) : (
        <RevealedArtwork
          planUrl={planUrl}
          skipLabel={t('result.revealSkip')}
          src={imageUrl}
          format={format}
          alt={t(format === 'story' ? 'result.storyArtworkAlt' : 'result.artworkAlt')}
          onError={() => setProblem(t('messages.downloadFailed'))}
        />
      )}
      {storyImage && (
        <FormatSwitch t={t} value={format} onChange={setFormat} formats={clipCodec ? SHARE_FORMATS : ARTWORK_FORMATS} />
      )}
      <h1 id="result-heading" className="display" ref={headingRef} tabIndex={-1}>
        {t('result.doneHeading')}
      </h1>
      <p className="lead">{t('result.doneBody')}</p>
      <p className="form-error" role="alert">
        {problem}
      </p>
      <div className="actions">
        {format !== 'clip' ? (
          <a
            className="button"
            href={downloadHref}
            download={downloadHref.includes('download=1') ? '' : undefined}
            onClick={inAppBrowser ? undefined : () => counted('download')}
            data-testid="result-download"
          >
            {t('result.download')}
          </a>
        ) : (
          // In-app browsers cannot save a file made on the page: there the clip leaves through the share sheet.
          !inAppBrowser && (
            <ClipDownload state={clip.state} label={t('result.download')} onDownload={() => counted('download')} />
          )
        )}
        {shareable && (
          <Button
            variant="ghost"
            onClick={() => void share()}
            disabled={format === 'clip' && !file}
            testId="result-share"
          >
            {t('result.share')}
          </Button>
        )}
        <Button variant="quiet" onClick={onRestart} testId="result-restart">
          {t('result.restart')}
        </Button>
      </div>
      <PhoneOffer />
    </section>
  );
}
