import { type AdminFunnel, FUNNEL_STEPS, type FunnelStep } from '@selfie-mosaic/contract';
import type { FunnelCount } from '../services/types.js';
import { csvLine } from './csv.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type Counts = Record<FunnelStep, number>;
const zero = (): Counts => Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])) as Counts;

/** Every UTC day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** The dashboard's funnel from the per-day counters: per market and locale, totals, and every day of the range. */
export function buildFunnel(from: string, to: string, counts: readonly FunnelCount[]): AdminFunnel {
  const rows = new Map<string, { country_iso: string; language: string } & Counts>();
  const days = new Map(daysOf(from, to).map((date) => [date, { date, ...zero() }]));
  const totals = zero();
  for (const { day, countryIso, language, step, n } of counts) {
    const key = `${countryIso}\u0000${language}`;
    let row = rows.get(key);
    if (!row) {
      row = { country_iso: countryIso, language, ...zero() };
      rows.set(key, row);
    }
    row[step] += n;
    totals[step] += n;
    const date = days.get(day);
    if (date) date[step] += n;
  }
  const ordered = [...rows.values()].sort(
    (a, b) => a.country_iso.localeCompare(b.country_iso) || a.language.localeCompare(b.language),
  );
  return { from, to, rows: ordered, totals, days: [...days.values()] };
}

/** The funnel CSV: one row per market and locale, the steps in the dashboard's order. */
export function funnelCsv(funnel: AdminFunnel): string {
  const header = csvLine(['country_iso', 'language', ...FUNNEL_STEPS]);
  return (
    header +
    funnel.rows.map((row) => csvLine([row.country_iso, row.language, ...FUNNEL_STEPS.map((s) => row[s])])).join('')
  );
}
