import { type RefObject, useEffect, useRef, useState } from 'react';
import { sessionStore } from '../../lib/session';
import { ArtworkImage, type ArtworkImageProps } from '../../lib/ui/ArtworkImage';
import { Laying } from './laying/laying';
import { loadRevealAssets } from './reveal-assets';
import './reveal.css';

/** How long the tesserae take to arrive. */
export const REVEAL_MS = 5000;
/** How long the plan and the picture may take to arrive before the artwork is shown without its reveal. */
export const REVEAL_PREPARE_MS = 4000;
/**
 * The tesserae in flight are drawn at this share of the picture's resolution: they move, fade and
 * stand above the bed, so they need no sharper, and a smaller canvas costs less to bring to the screen
 * every frame. Landed tesserae settle on the laid layer, at full resolution.
 */
const FLYING_SCALE = 2 / 3;
/** The covering canvas fading away after a skip (as long as `.reveal--leaving`'s transition). */
const LEAVE_MS = 400;

/** Marks that let a benchmark or a test find the reveal's frames among the page's. */
export const REVEAL_MARKS = { start: 'reveal:start', end: 'reveal:end' } as const;

type Stage = 'covered' | 'leaving' | 'off';

interface RevealedArtworkProps extends Omit<ArtworkImageProps, 'imageRef' | 'className' | 'children'> {
  /** The laying plan's URL; null when the job has none. */
  planUrl: string | null;
  /** The skip button's words. */
  skipLabel: string;
}

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The finished artwork, laid before the visitor's eyes the first time this job's artwork is shown:
 * tesserae arriving on the campaign frame, then the picture itself. Never under reduced motion; any
 * failure shows the artwork at once. The <img> stays underneath throughout (screen readers get it and
 * its alt text; the canvases are hidden from them).
 */
export function RevealedArtwork({ planUrl, skipLabel, format = 'post', ...image }: RevealedArtworkProps) {
  const [stage, setStage] = useState<Stage>(() =>
    planUrl && format === 'post' && !sessionStore.getState().artworkRevealed && !prefersReducedMotion()
      ? 'covered'
      : 'off',
  );
  const imageRef = useRef<HTMLImageElement>(null);

  // Shown once, whichever way: coming back to it (a reload, the download page and back) shows it at once.
  useEffect(() => {
    if (!sessionStore.getState().artworkRevealed) sessionStore.update({ artworkRevealed: true });
  }, []);

  // Another format chosen mid-reveal: that picture at once.
  useEffect(() => {
    if (format !== 'post') setStage('off');
  }, [format]);

  useEffect(() => {
    if (stage !== 'leaving') return;
    const timer = setTimeout(() => setStage('off'), LEAVE_MS);
    return () => clearTimeout(timer);
  }, [stage]);

  return (
    <ArtworkImage
      {...image}
      format={format}
      imageRef={imageRef}
      className={stage === 'off' ? undefined : `artwork--unclipped${stage === 'covered' ? ' artwork--revealing' : ''}`}
    >
      {stage !== 'off' && planUrl && (
        <Reveal
          planUrl={planUrl}
          image={imageRef}
          leaving={stage === 'leaving'}
          skipLabel={skipLabel}
          onEnd={(skipped) => setStage(skipped ? 'leaving' : 'off')}
        />
      )}
    </ArtworkImage>
  );
}

interface RevealProps {
  planUrl: string;
  image: RefObject<HTMLImageElement | null>;
  leaving: boolean;
  skipLabel: string;
  /** The reveal is over: played to its end (false), or cut short by the visitor, a hidden tab or a failure (true). */
  onEnd: (skipped: boolean) => void;
}

function Reveal({ planUrl, image, leaving, skipLabel, onEnd }: RevealProps) {
  const laidRef = useRef<HTMLCanvasElement>(null);
  const flyingRef = useRef<HTMLCanvasElement>(null);
  const [playing, setPlaying] = useState(false);
  const skipRef = useRef<() => void>(() => undefined);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  useEffect(() => {
    const controller = new AbortController();
    let frame = 0;
    let over = false;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let release = () => {};
    const end = (skipped: boolean) => {
      if (over) return;
      over = true;
      cancelAnimationFrame(frame);
      clearTimeout(deadline);
      document.removeEventListener('visibilitychange', onVisibility);
      performance.mark(REVEAL_MARKS.end);
      onEndRef.current(skipped);
    };
    skipRef.current = () => end(true);
    // A hidden tab draws no frames: the visitor comes back to the finished artwork.
    function onVisibility() {
      if (document.hidden) end(true);
    }
    document.addEventListener('visibilitychange', onVisibility);
    deadline = setTimeout(() => end(true), REVEAL_PREPARE_MS);

    const play = async () => {
      const img = image.current;
      const laid = laidRef.current;
      const flying = flyingRef.current;
      if (!img || !laid || !flying) throw new Error('nothing to reveal on');
      const assets = await loadRevealAssets(planUrl, img, controller.signal);
      if (over) return assets.release();
      release = assets.release;
      const laying = new Laying(assets.plan, assets.picture, { format: 'post', durationMs: REVEAL_MS });
      laid.width = laying.width;
      laid.height = laying.height;
      flying.width = Math.round(laying.width * FLYING_SCALE);
      flying.height = Math.round(laying.height * FLYING_SCALE);
      const laidCtx = laid.getContext('2d');
      const flyingCtx = flying.getContext('2d');
      if (!laidCtx || !flyingCtx) throw new Error('no 2D canvas');
      flyingCtx.scale(flying.width / laying.width, flying.height / laying.height);
      laying.drawLayers(laidCtx, flyingCtx, 0);
      const corners = roundCorners(laid);
      corners(laidCtx);
      clearTimeout(deadline);
      if (document.hidden) return end(true);
      setPlaying(true);
      // The clock starts once the frame and the bed are on screen: their first paint, the longest, moves nothing.
      let startedAt: number | null = null;
      const tick = (now: number) => {
        if (startedAt === null) performance.mark(REVEAL_MARKS.start);
        startedAt ??= now;
        const ms = now - startedAt;
        laying.drawLayers(laidCtx, flyingCtx, ms);
        if (ms < laying.durationMs) {
          frame = requestAnimationFrame(tick);
          return;
        }
        // The last frame is the picture drawn whole: square again.
        corners(laidCtx);
        end(false);
      };
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(tick);
      });
    };
    // Any failure (no plan for an older result, an undecodable picture, no canvas): the artwork at once.
    play().catch(() => end(true));

    return () => {
      over = true;
      controller.abort();
      cancelAnimationFrame(frame);
      clearTimeout(deadline);
      document.removeEventListener('visibilitychange', onVisibility);
      release();
    };
  }, [planUrl, image]);

  const skip = () => skipRef.current();
  const state = leaving ? 'leaving' : playing ? 'playing' : 'preparing';
  return (
    <>
      {/* A tap on the picture skips; keyboards and screen readers have the Skip button. */}
      <div
        className={`reveal reveal--${state}`}
        onClick={skip}
        aria-hidden="true"
        data-testid="reveal"
        data-state={state}
      >
        <canvas ref={laidRef} className="reveal__layer" data-testid="reveal-laid" />
        <canvas ref={flyingRef} className="reveal__layer" />
      </div>
      {!leaving && (
        <button type="button" className="pill-button reveal__skip" onClick={skip} data-testid="reveal-skip">
          {skipLabel}
        </button>
      )}
    </>
  );
}

/**
 * The figure's rounded corners, cut out of the laid canvas's own pixels: a browser that clips a
 * changing canvas to rounded corners redraws the clip every frame, so during the reveal the figure
 * does not clip (`.artwork--unclipped`). The tesserae, in flight or laid, stay inside the frame, clear
 * of the corners.
 */
function roundCorners(canvas: HTMLCanvasElement): (ctx: CanvasRenderingContext2D) => void {
  const figure = canvas.closest('figure');
  const cssRadius = figure ? Number.parseFloat(getComputedStyle(figure).borderTopLeftRadius) : 0;
  const radius = (cssRadius * canvas.width) / Math.max(1, canvas.clientWidth);
  return (ctx) => {
    if (!(radius > 0) || typeof ctx.roundRect !== 'function') return;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-out';
    ctx.beginPath();
    ctx.rect(0, 0, canvas.width, canvas.height);
    ctx.roundRect(0, 0, canvas.width, canvas.height, radius);
    ctx.fill('evenodd');
    ctx.restore();
  };
}
