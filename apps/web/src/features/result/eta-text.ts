import type { TFunction } from 'i18next';

/** Under this many seconds the visitor reads "a few seconds": a count would only flicker down. */
const FEW_SECONDS = 10;

export type RoundedEta =
  | { unit: 'fewSeconds' }
  | { unit: 'seconds'; count: number }
  | { unit: 'minutes'; count: number };

/**
 * The server's estimate as a person would say it (docs/product.md#queue-and-result): a few seconds, then
 * steps of 5 s up to half a minute and of 10 s up to a minute, then whole minutes. Coarse steps keep the
 * text (and the polite announcement of it) from changing with every job that finishes ahead.
 */
export function roundEta(seconds: number): RoundedEta {
  if (seconds < FEW_SECONDS) return { unit: 'fewSeconds' };
  const step = seconds < 30 ? 5 : 10;
  const rounded = Math.round(seconds / step) * step;
  if (rounded < 60) return { unit: 'seconds', count: rounded };
  return { unit: 'minutes', count: Math.max(1, Math.round(seconds / 60)) };
}

/** "Ready in about 40 seconds" in the visitor's language, plural forms per CLDR; null without an estimate. */
export function etaText(t: TFunction, seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  const eta = roundEta(seconds);
  if (eta.unit === 'fewSeconds') return t('result.etaFewSeconds');
  return t(eta.unit === 'seconds' ? 'result.etaSeconds' : 'result.etaMinutes', { count: eta.count });
}
