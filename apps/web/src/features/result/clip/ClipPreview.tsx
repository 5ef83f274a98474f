import { STORY_ARTWORK } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import type { ClipState } from './use-story-clip';
import './clip.css';

interface ClipPreviewProps {
  t: TFunction;
  state: ClipState;
  /** The story picture: shown while the clip is made, and as the video's poster. */
  storyUrl: string;
  /** The page's BCP 47 language tag, for the percentage. */
  lang: string;
  onRetry: () => void;
}

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The story clip's place on the result screen: the story picture with the progress while the clip is
 * made, then the clip itself, muted and looping (paused at the start under reduced motion), with a
 * button to pause or play it (it moves for longer than five seconds).
 */
export function ClipPreview({ t, state, storyUrl, lang, onRetry }: ClipPreviewProps) {
  const { width, height } = STORY_ARTWORK;
  const labelId = useId();
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const ready = state.status === 'ready';
  useEffect(() => {
    if (ready && !prefersReducedMotion()) void video.current?.play().catch(() => undefined);
  }, [ready]);
  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  };

  return (
    <figure className="artwork artwork--story clip" data-testid="clip-preview">
      {ready ? (
        <video
          ref={video}
          src={state.url}
          poster={storyUrl}
          width={width}
          height={height}
          muted
          loop
          playsInline
          preload="auto"
          aria-label={t('result.clipAlt')}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          data-testid="clip-video"
        />
      ) : (
        <img src={storyUrl} alt={t('result.storyArtworkAlt')} width={width} height={height} data-testid="artwork" />
      )}
      {ready && (
        <button type="button" className="pill-button clip__toggle" onClick={toggle} data-testid="clip-toggle">
          {t(playing ? 'result.clipPause' : 'result.clipPlay')}
        </button>
      )}
      {state.status === 'making' && (
        <figcaption className="clip__panel" data-testid="clip-making">
          <span id={labelId} role="status">
            {t('result.clipMaking')}
          </span>
          <div
            className="progress"
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(state.done * 100)}
            aria-valuetext={new Intl.NumberFormat(lang, { style: 'percent' }).format(state.done)}
          >
            <div className="progress__fill" style={{ inlineSize: `${state.done * 100}%` }} />
          </div>
        </figcaption>
      )}
      {state.status === 'failed' && (
        <figcaption className="clip__panel" data-testid="clip-failed">
          <span role="alert">{t('result.clipFailed')}</span>
          <button type="button" className="pill-button clip__retry" onClick={onRetry} data-testid="clip-retry">
            {t('result.clipRetry')}
          </button>
        </figcaption>
      )}
    </figure>
  );
}
