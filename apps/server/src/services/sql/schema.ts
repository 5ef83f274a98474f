import type { AnalyticsEvent, FunnelStep, HandoffState, JobStatus, RefusalCode } from '@selfie-mosaic/contract';
import type { Generated, Kysely } from 'kysely';

/**
 * The tables both databases share. Epoch milliseconds are BIGINT (PostgreSQL returns them as strings,
 * so readers pass them through `Number`); booleans are 0/1 integers so the same queries work on SQLite.
 */
export interface JobsTable {
  id: string;
  session_id: string;
  blacklabel: number;
  status: JobStatus;
  attempts: Generated<number>;
  /** The queue delivery holding the job while it is processing (random per delivery). */
  delivery: Generated<string | null>;
  error_message: string | null;
  error_code: RefusalCode | null;
  photo_key: string | null;
  result_token: string | null;
  width: number | null;
  height: number | null;
  created_at: number | string;
  updated_at: number | string;
  expires_at: number | string | null;
}

export interface ConsentsTable {
  id: string;
  session_id: string | null;
  country_iso: string;
  language: string;
  question_answer: 'yes' | 'no';
  consent_given: number;
  created_at: string;
  /** ISO time a phone first took the visit over under this consent (desktop → phone); null: never. */
  handed_off_at: string | null;
}

interface PageviewsTable {
  id: Generated<number>;
  country_iso: string;
  language: string;
  page_path: string;
  browser_family: string;
  created_at: string;
}

interface StorageProbeTable {
  id: number;
  probed_at: number | string;
}

/**
 * One row per job, kept after the job row is swept: the consent that covered it (its market and locale),
 * its outcome, and when its photo and artwork were deleted. Epoch milliseconds.
 */
export interface JobHistoryTable {
  job_id: string;
  consent_id: string | null;
  country_iso: string;
  language: string;
  uploaded_at: number | string;
  ended_at: number | string | null;
  outcome: 'completed' | 'failed' | null;
  error_code: RefusalCode | null;
  render_ms: number | null;
  photo_deleted_at: number | string | null;
  artwork_deleted_at: number | string | null;
}

interface AnalyticsEventsTable {
  id: Generated<number>;
  event: AnalyticsEvent;
  country_iso: string;
  language: string;
  browser_family: string;
  created_at: string;
}

/** Per UTC day, market and locale, how many visitors reached each funnel step; bumped as facts are recorded. */
interface FunnelDailyTable {
  day: string;
  country_iso: string;
  language: string;
  step: FunnelStep;
  n: number;
}

/**
 * A desktop → phone hand-off: the session and consent the phone continues under, and where it is. The
 * code's token is kept only as its SHA-256 hash, and only until it is used or runs out. Epoch milliseconds.
 */
export interface HandoffsTable {
  id: string;
  token_hash: string | null;
  session_id: string;
  consent_id: string;
  /** The session's completed job whose artwork the phone opens; null: the phone takes the photo. */
  artwork_job_id: string | null;
  /** Stored states never include `expired`: that is read from the times. */
  state: Exclude<HandoffState, 'expired'>;
  /** The phone's job once its photo was accepted. */
  job_id: string | null;
  created_at: number | string;
  claim_expires_at: number | string;
  follow_expires_at: number | string;
}

export interface Tables {
  job_history: JobHistoryTable;
  analytics_events: AnalyticsEventsTable;
  funnel_daily: FunnelDailyTable;
  jobs: JobsTable;
  storage_probe: StorageProbeTable;
  consents: ConsentsTable;
  pageviews: PageviewsTable;
  handoffs: HandoffsTable;
}

export type Db = Kysely<Tables>;
