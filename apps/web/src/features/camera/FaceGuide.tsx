import type { CoachAdvice } from './coach/coach';

interface FaceGuideProps {
  /** The face guide's advice, or null for the plain circle (no detector, or not watching now). */
  advice?: CoachAdvice | null;
}

/**
 * The face circle over the preview: the scene dims outside it, a ring marks where the face goes.
 * While the guide coaches, the ring tells its state by shape as well as colour: a solid ring with a
 * tick when the face is good, a dashed ring with an exclamation mark while something needs changing.
 */
export function FaceGuide({ advice = null }: FaceGuideProps) {
  const tone = advice === null ? null : advice === 'good' ? 'good' : 'adjust';
  return (
    <svg
      className={`face-guide${tone ? ` face-guide--${tone}` : ''}`}
      viewBox="0 0 100 125"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      data-coach={advice ?? undefined}
    >
      <defs>
        <mask id="face-guide-mask">
          <rect width="100" height="125" fill="white" />
          <ellipse cx="50" cy="56" rx="31" ry="39" fill="black" />
        </mask>
      </defs>
      <rect width="100" height="125" fill="rgba(11, 28, 33, 0.55)" mask="url(#face-guide-mask)" />
      <ellipse className="face-guide__ring" cx="50" cy="56" rx="31" ry="39" />
      {tone && (
        <g className="face-guide__badge" transform="translate(50 17)">
          <circle r="5.5" />
          {tone === 'good' ? (
            <path d="M-2.6 0.2 L-0.7 2.2 L2.8 -1.9" />
          ) : (
            <>
              <path d="M0 -2.8 L0 0.8" />
              <circle className="face-guide__dot" cy="2.7" r="0.6" />
            </>
          )}
        </g>
      )}
    </svg>
  );
}
