import type { FunnelStep, ScreenName } from '@selfie-mosaic/contract';
import type { Kysely } from 'kysely';
import type { Tables } from './schema.js';

/**
 * The dashboard's funnel reads per-day counters, bumped in the same transaction as the fact they count,
 * instead of scanning a campaign's millions of page views per request (BENCHMARKS.md#dashboard-and-export).
 * The definitions of the steps are in docs/product.md#the-funnel.
 */

/** The screens whose page views are funnel steps; Yes on the start screen leads to the curious screen. */
const SCREEN_STEPS: Partial<Record<ScreenName, FunnelStep>> = {
  start: 'start_views',
  curious: 'answered_yes',
  photo: 'photo_views',
};

/** The funnel step a page view counts for: `/:country/:language/:screen` of a counted screen, else none. */
export function stepOfPage(pagePath: string): FunnelStep | undefined {
  const segments = pagePath.toLowerCase().split('/').filter(Boolean);
  if (segments.length !== 3) return undefined;
  return SCREEN_STEPS[segments[2] as ScreenName];
}

/** The UTC day of an ISO time or epoch milliseconds, `YYYY-MM-DD`. */
export function utcDay(at: string | number): string {
  return (typeof at === 'number' ? new Date(at).toISOString() : at).slice(0, 10);
}

export interface FunnelKey {
  day: string;
  countryIso: string;
  language: string;
  step: FunnelStep;
}

/** Adds `by` (negative to undo) to one counter, creating it at `by`; atomic in both databases. */
export async function bumpFunnel(db: Kysely<Tables>, key: FunnelKey, by = 1): Promise<void> {
  await db
    .insertInto('funnel_daily')
    .values({ day: key.day, country_iso: key.countryIso, language: key.language, step: key.step, n: by })
    .onConflict((conflict) =>
      conflict
        .columns(['day', 'country_iso', 'language', 'step'])
        .doUpdateSet({ n: (eb) => eb('funnel_daily.n', '+', by) }),
    )
    .execute();
}
