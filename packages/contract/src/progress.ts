import { POLL } from './constants.js';

/**
 * The progress bar for a queue position (docs/product.md#progress-and-queue-messages): full while
 * processing (position 0), otherwise 20 points less for each place in the queue, never below 10.
 */
export function progressForPosition(position: number): number {
  if (position <= 0) return 100;
  return Math.min(100, Math.max(10, 100 - 20 * position));
}

export type PollOutcome = 'error' | 'success' | 'success-under-load';

/**
 * The delay before the next poll (docs/product.md#job-monitoring): ×1.5 on an error (408 included) up to 10 s;
 * ×0.8 on each successful update without server load, never below 2 s.
 */
export function nextPollDelay(currentMs: number, outcome: PollOutcome): number {
  const current = Math.max(POLL.minMs, currentMs);
  if (outcome === 'error') return Math.min(POLL.maxMs, current * POLL.growth);
  if (outcome === 'success') return Math.max(POLL.minMs, current * POLL.shrink);
  return current;
}
