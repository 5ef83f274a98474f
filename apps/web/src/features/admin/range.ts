import { ADMIN_RANGE_MAX_DAYS, type AdminRange, adminRangeSchema } from '@selfie-mosaic/contract';

/** The dashboard counts whole UTC days, both ends included, like the API. */
const DAY_MS = 24 * 60 * 60 * 1000;

export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** The last 7 days, today (UTC) included. */
export function defaultRange(now: Date = new Date()): AdminRange {
  return { from: utcDay(new Date(now.getTime() - 6 * DAY_MS)), to: utcDay(now) };
}

/** Days in a range, both ends included. */
function rangeDays({ from, to }: AdminRange): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
}

export type RangeProblem = { field: 'from' | 'to'; message: string };

/** The range as typed, checked with the contract's schema; the first problem names its field. */
export function checkRange(from: string, to: string): { range: AdminRange } | { problem: RangeProblem } {
  if (!from) return { problem: { field: 'from', message: 'Enter the first day of the range.' } };
  if (!to) return { problem: { field: 'to', message: 'Enter the last day of the range.' } };
  const result = adminRangeSchema.safeParse({ from, to });
  if (result.success) {
    if (rangeDays(result.data) > ADMIN_RANGE_MAX_DAYS) {
      return { problem: { field: 'to', message: `Choose at most ${ADMIN_RANGE_MAX_DAYS} days.` } };
    }
    return { range: result.data };
  }
  const issue = result.error.issues[0];
  const field = issue?.path[0] === 'to' ? 'to' : 'from';
  if (issue?.code === 'custom') return { problem: { field, message: 'The first day must not be after the last day.' } };
  return { problem: { field, message: `Enter the ${field === 'from' ? 'first' : 'last'} day as YYYY-MM-DD.` } };
}

/** The range as an operator reads it, with its length: "2026-11-17 to 2026-11-23 (7 days, UTC)". */
export function describeRange(range: AdminRange): string {
  const { from, to } = range;
  const days = rangeDays(range);
  return `${from} to ${to} (${days} ${days === 1 ? 'day' : 'days'}, UTC)`;
}
