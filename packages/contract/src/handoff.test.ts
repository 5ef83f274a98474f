import { describe, expect, it } from 'vitest';
import {
  createHandoffToken,
  groupHandoffToken,
  HANDOFF,
  handoffClaimRequestSchema,
  handoffUrl,
  normalizeHandoffToken,
} from './handoff.js';

describe('hand-off tokens', () => {
  it('carries at least 128 random bits', () => {
    expect(HANDOFF.tokenChars * 5).toBeGreaterThanOrEqual(128);
    const tokens = new Set(Array.from({ length: 1000 }, () => createHandoffToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(normalizeHandoffToken(token)).toBe(token);
  });

  it('reads a typed token whatever its case, dashes, spaces and look-alike letters', () => {
    const token = createHandoffToken(() => new Uint8Array(HANDOFF.tokenChars).map((_, i) => i));
    const typed = groupHandoffToken(token).toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    expect(normalizeHandoffToken(typed)).toBe(token);
    expect(normalizeHandoffToken(` ${token.slice(0, 10)} ${token.slice(10)} `)).toBe(token);
  });

  it('refuses what cannot be a token', () => {
    expect(normalizeHandoffToken('')).toBeNull();
    expect(normalizeHandoffToken(createHandoffToken().slice(1))).toBeNull();
    expect(normalizeHandoffToken(`${createHandoffToken()}U`)).toBeNull();
    expect(handoffClaimRequestSchema.safeParse({ token: 'not a token' }).success).toBe(false);
  });

  it('puts the token in the fragment of the phone screen, in the same market and language', () => {
    const token = createHandoffToken();
    const url = new URL(handoffUrl('https://mosaic.example', 'ae', 'ae-ar', token));
    expect(url.pathname).toBe('/ae/ae-ar/continue');
    expect(normalizeHandoffToken(url.hash.slice(1))).toBe(token);
    expect(url.search).toBe('');
  });
});
