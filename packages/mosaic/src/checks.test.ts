import { describe, expect, it } from 'vitest';
import { check, mismatch } from './checks.js';

describe('check', () => {
  it('lets a good value through and words a bad one as sharp does', () => {
    expect(() => check(true, 'seed', 'an integer', 1)).not.toThrow();
    expect(() => check(Number.isInteger(1.5), 'seed', 'an integer', 1.5)).toThrow(
      new TypeError('Expected an integer for seed but received 1.5'),
    );
  });

  it('shows at most 100 characters of what it received, and something for any value', () => {
    expect(mismatch('input', 'a Buffer or Uint8Array', 'x'.repeat(500))).toBe(
      `Expected a Buffer or Uint8Array for input but received ${'x'.repeat(100)}`,
    );
    expect(mismatch('options', 'an object', Object.create(null))).toBe(
      'Expected an object for options but received object',
    );
    expect(mismatch('options', 'an object', null)).toBe('Expected an object for options but received null');
  });
});
