import { FUNNEL_STEPS, type FunnelStep } from '@selfie-mosaic/contract';
import { describe, expect, it } from 'vitest';
import { conversion, formatCount, formatDuration, formatUtcTime } from './figures';

const counts = (values: Partial<Record<FunnelStep, number>>) =>
  ({ ...Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])), ...values }) as Record<FunnelStep, number>;

describe('the figures an operator reads', () => {
  it('gives each step its rate of the step a visitor comes from', () => {
    const funnel = counts({
      start_views: 200,
      answered_yes: 150,
      answered_no: 50,
      consented: 120,
      artworks: 40,
      shares: 10,
    });
    expect(conversion(funnel, 'answered_yes')).toBe('75%');
    expect(conversion(funnel, 'answered_no')).toBe('25%');
    expect(conversion(funnel, 'consented')).toBe('80%');
    expect(conversion(funnel, 'shares')).toBe('25%');
  });

  it('has no rate for the first step or when nobody reached the step before', () => {
    const funnel = counts({ start_views: 3 });
    expect(conversion(funnel, 'start_views')).toBeNull();
    expect(conversion(funnel, 'uploads')).toBeNull();
    expect(conversion(counts({ start_views: 3, answered_yes: 1 }), 'answered_yes')).toBe('33.3%');
  });

  it('writes counts with separators, durations in ms or s and times in UTC', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatDuration(850.4)).toBe('850 ms');
    expect(formatDuration(2430)).toBe('2.4 s');
    expect(formatUtcTime('2026-11-24T21:05:09.123Z')).toBe('21:05:09 UTC');
  });
});
