import { z } from 'zod';
import { REFUSALS, type RefusalCode } from './errors.js';

/**
 * The operators' side of the API (docs/architecture.md#operators): the dashboard's sign-in, its live
 * figures and funnel, and the regulator export. Off (404) unless the server has an admin secret.
 */

// The paths and the cookie live in a module without zod: the web app's router needs the page path,
// and importing it from here would put every schema (and zod) into the visitor's entry chunk.
export { ADMIN_COOKIE, ADMIN_PATHS } from './admin-paths.js';

/** The window of the live figures (jobs per minute, render times, refusals). */
export const ADMIN_LIVE_WINDOW_MS = 15 * 60 * 1000;

/** What a visitor does after the artwork is ready, counted through the analytics endpoint like page views. */
export const ANALYTICS_EVENTS = ['download', 'share'] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

/**
 * The funnel, step by step, per market and locale: start-screen views → yes / no → consent → photo-screen
 * views → uploads → artworks → downloads → shares. The order is the dashboard's and the CSV's column order.
 */
export const FUNNEL_STEPS = [
  'start_views',
  'answered_yes',
  'answered_no',
  'consented',
  'photo_views',
  'uploads',
  'artworks',
  'downloads',
  'shares',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

const count = z.number().int().nonnegative();
const funnelCounts = Object.fromEntries(FUNNEL_STEPS.map((step) => [step, count])) as Record<FunnelStep, typeof count>;

export const adminSignInSchema = z.strictObject({
  token: z.string().min(1).max(1024).describe('ADMIN_TOKEN, or the password whose hash is ADMIN_PASSWORD_HASH'),
});

const refusalCounts = z
  .record(z.enum(Object.keys(REFUSALS) as [RefusalCode, ...RefusalCode[]]), count)
  .describe('Jobs failed in the window, by refusal code');

export const adminLiveSchema = z.object({
  at: z.iso.datetime(),
  queue_depth: count.describe('Jobs waiting in the queue'),
  processing: count.describe('Jobs being rendered now'),
  jobs_per_minute: z.number().nonnegative().describe('Jobs finished per minute over the window'),
  render_ms: z
    .object({ p50: z.number().nonnegative(), p95: z.number().nonnegative() })
    .nullable()
    .describe('Render time of the jobs finished in the window; null when none finished'),
  completed: count.describe('Jobs completed in the window'),
  refusals: refusalCounts,
  window_minutes: count,
});

/** The longest funnel or export range, in days: a campaign year, leap day included. */
export const ADMIN_RANGE_MAX_DAYS = 366;

/** A day, UTC, `YYYY-MM-DD`; a range includes both ends. */
const day = z.iso.date();

export const adminRangeSchema = z
  .object({ from: day, to: day })
  .refine(({ from, to }) => from <= to, { message: 'from must not be after to', path: ['from'] });

export const consentExportQuerySchema = z
  .object({ from: day, to: day, format: z.enum(['csv', 'ndjson']).default('csv') })
  .refine(({ from, to }) => from <= to, { message: 'from must not be after to', path: ['from'] });

export const funnelRowSchema = z.object({ country_iso: z.string(), language: z.string(), ...funnelCounts });

export const adminFunnelSchema = z.object({
  from: day,
  to: day,
  /** One row per market and locale with any activity in the range, ordered by country then locale. */
  rows: z.array(funnelRowSchema),
  totals: z.object(funnelCounts),
  /** The whole campaign per day of the range, for the chart; days without activity are zero rows. */
  days: z.array(z.object({ date: day, ...funnelCounts })),
});

/**
 * One consent as the regulator export gives it: NDJSON lines are these objects; the CSV has one row per
 * job the consent covered (one row with empty job columns when it covered none).
 */
export const consentExportRecordSchema = z.object({
  consent_id: z.uuid(),
  created_at: z.iso.datetime(),
  country_iso: z.string(),
  language: z.string(),
  question_answer: z.enum(['yes', 'no']),
  consent_given: z.boolean(),
  session_id: z.string().nullable(),
  /** When a phone first took the visit over from the desktop that gave this consent (desktop → phone hand-off). */
  handed_off_at: z.iso.datetime().nullable(),
  jobs: z.array(
    z.object({
      job_id: z.uuid(),
      uploaded_at: z.iso.datetime(),
      photo_deleted_at: z.iso.datetime().nullable(),
      artwork_deleted_at: z.iso.datetime().nullable(),
    }),
  ),
});

export const CONSENT_EXPORT_CSV_COLUMNS = [
  'consent_id',
  'created_at',
  'country_iso',
  'language',
  'question_answer',
  'consent_given',
  'session_id',
  'handed_off_at',
  'job_id',
  'uploaded_at',
  'photo_deleted_at',
  'artwork_deleted_at',
] as const;

export type AdminLive = z.infer<typeof adminLiveSchema>;
export type AdminRange = z.infer<typeof adminRangeSchema>;
export type FunnelRow = z.infer<typeof funnelRowSchema>;
export type AdminFunnel = z.infer<typeof adminFunnelSchema>;
export type ConsentExportRecord = z.infer<typeof consentExportRecordSchema>;
