import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ageCopy } from './locale-context';

const copy: Record<string, string> = {
  'start.residence': 'Are you over {{age}} and living in {{country}}?',
  'start.residenceLegalAge': 'Are you of legal age and living in {{country}}?',
};
const t = ((key: string, values: Record<string, unknown> = {}) =>
  (copy[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]))) as unknown as TFunction;

describe('ageCopy', () => {
  it('states the market’s minimum age', () => {
    expect(ageCopy(t, 21, 'start.residence', { country: 'Kazakhstan' })).toBe(
      'Are you over 21 and living in Kazakhstan?',
    );
  });

  it('asks for legal age where a market sets no number', () => {
    expect(ageCopy(t, null, 'start.residence', { country: 'Jordan' })).toBe(
      'Are you of legal age and living in Jordan?',
    );
  });
});
