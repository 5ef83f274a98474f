import { progressForPosition, queueMessageKey } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { useId } from 'react';

interface QueueProgressProps {
  t: TFunction;
  position: number;
  serverLoad: boolean;
}

/**
 * The queue message (announced politely as it changes) and the progress bar
 * (docs/product.md#progress-and-queue-messages).
 */
export function QueueProgress({ t, position, serverLoad }: QueueProgressProps) {
  const labelId = useId();
  const progress = progressForPosition(position);
  const message = t(`queue.${queueMessageKey(position, serverLoad)}`, { n: position });
  return (
    <div className="queue">
      <p className="queue__message" role="status" aria-live="polite" data-testid="queue-message">
        {message}
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
