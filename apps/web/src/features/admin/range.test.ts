import { describe, expect, it } from 'vitest';
import { checkRange, defaultRange, describeRange } from './range';

describe('the funnel date range', () => {
  it('defaults to the last 7 UTC days, today included', () => {
    // 00:30 in Tokyo on the 24th is still the 23rd in UTC.
    expect(defaultRange(new Date('2026-11-23T15:30:00Z'))).toEqual({ from: '2026-11-17', to: '2026-11-23' });
    expect(defaultRange(new Date('2026-03-02T00:00:00Z'))).toEqual({ from: '2026-02-24', to: '2026-03-02' });
  });

  it('accepts a range of one day or more', () => {
    expect(checkRange('2026-11-23', '2026-11-23')).toEqual({ range: { from: '2026-11-23', to: '2026-11-23' } });
  });

  it('takes up to a year, leap day included, and no more', () => {
    expect(checkRange('2024-01-01', '2024-12-31')).toEqual({ range: { from: '2024-01-01', to: '2024-12-31' } });
    expect(checkRange('2024-01-01', '2025-01-01')).toEqual({
      problem: { field: 'to', message: 'Choose at most 366 days.' },
    });
  });

  it('names the field an operator must fix', () => {
    expect(checkRange('', '2026-11-23')).toEqual({
      problem: { field: 'from', message: 'Enter the first day of the range.' },
    });
    expect(checkRange('2026-11-23', '')).toEqual({
      problem: { field: 'to', message: 'Enter the last day of the range.' },
    });
    expect(checkRange('2026-11-24', '2026-11-23')).toEqual({
      problem: { field: 'from', message: 'The first day must not be after the last day.' },
    });
    expect(checkRange('2026-11-01', '2026-13-40')).toEqual({
      problem: { field: 'to', message: 'Enter the last day as YYYY-MM-DD.' },
    });
  });

  it('reads as days, UTC', () => {
    expect(describeRange({ from: '2026-11-17', to: '2026-11-23' })).toBe('2026-11-17 to 2026-11-23 (7 days, UTC)');
    expect(describeRange({ from: '2026-11-23', to: '2026-11-23' })).toBe('2026-11-23 to 2026-11-23 (1 day, UTC)');
  });
});
