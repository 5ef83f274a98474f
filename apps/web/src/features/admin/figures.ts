import type { FunnelStep } from '@selfie-mosaic/contract';
import { CONVERSION_BASE } from './labels';

type Counts = Record<FunnelStep, number>;

const whole = new Intl.NumberFormat('en-GB');
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const decimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

export const formatCount = (value: number) => whole.format(value);
export const formatDecimal = (value: number) => decimal.format(value);

/**
 * A step's conversion from the step before it, as a percentage; null for the first step and when
 * nobody reached the step before (0 of 0 is no rate at all, not 0 %).
 */
export function conversion(counts: Counts, step: FunnelStep): string | null {
  const base = CONVERSION_BASE[step];
  if (!base || counts[base] === 0) return null;
  return percent.format(counts[step] / counts[base]);
}

/** Milliseconds as an operator reads a render time: "850 ms", "2.4 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${decimal.format(ms / 1000)} s`;
}

/** The time of an update, to the second, in UTC like every figure on the dashboard. */
export function formatUtcTime(iso: string): string {
  return `${iso.slice(11, 19)} UTC`;
}
