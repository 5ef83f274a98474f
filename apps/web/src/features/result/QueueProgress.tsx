import { progressForPosition, queueMessageKey } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { etaText } from './eta-text';

interface QueueProgressProps {
  t: TFunction;
  position: number;
  serverLoad: boolean;
  /** The server's estimate of the seconds until the artwork is ready, when it has one. */
  etaSeconds?: number | null;
}

/**
 * The queue message with the time estimate (announced politely as either changes) and the progress bar
 * (docs/product.md#progress-and-queue-messages).
 */
export function QueueProgress({ t, position, serverLoad, etaSeconds = null }: QueueProgressProps) {
  const labelId = useId();
  const progress = progressForPosition(position);
  const message = t(`queue.${queueMessageKey(position, serverLoad)}`, { n: position });
  // Rounded text: React leaves the live region alone until the wording changes, so nothing is re-announced.
  const eta = serverLoad ? null : etaText(t, etaSeconds);
  return (
    <div className="queue">
      <p className="queue__message" role="status" aria-live="polite" data-testid="queue-message">
        {message}
        {eta && (
          <>
            {' '}
            <span className="queue__eta" data-testid="queue-eta">
              {eta}
            </span>
          </>
        )}
      </p>
      <span id={labelId} className="visually-hidden">
        {t('result.progressLabel')}
      </span>
      <div
        className="progress"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        aria-valuetext={`${progress}%`}
      >
        <div className="progress__fill" style={{ inlineSize: `${progress}%` }} />
      </div>
    </div>
  );
}
