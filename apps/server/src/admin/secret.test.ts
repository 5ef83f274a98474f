import { describe, expect, it } from 'vitest';
import { AdminSecret, hashPassword, parsePasswordHash } from './secret.js';

describe('AdminSecret', () => {
  const token = 'operator-token-for-the-unit-test';

  it('accepts the token and nothing else, not even a prefix or a longer string', async () => {
    const secret = new AdminSecret({ kind: 'token', token });
    expect(await secret.verify(token)).toBe(true);
    for (const wrong of ['', token.slice(0, -1), `${token}x`, token.toUpperCase()]) {
      expect(await secret.verify(wrong)).toBe(false);
    }
  });

  it('accepts the password of a hash, salted so the same password hashes differently each time', async () => {
    const [first, second] = [
      await hashPassword('a good long passphrase'),
      await hashPassword('a good long passphrase'),
    ];
    expect(first).not.toBe(second);
    expect(typeof parsePasswordHash(first)).toBe('object');
    const secret = new AdminSecret({ kind: 'passwordHash', passwordHash: first });
    expect(await secret.verify('a good long passphrase')).toBe(true);
    expect(await secret.verify('a good long passphrasE')).toBe(false);
  });

  it('accepts its own unexpired cookies only: another secret, a changed expiry or an old one are refused', () => {
    const secret = new AdminSecret({ kind: 'token', token });
    const now = Date.now();
    const cookie = secret.issue(now + 60_000);
    expect(secret.accepts(cookie, now)).toBe(true);
    // Another process with the same secret (behind a load balancer) accepts it: nothing is shared but the secret.
    expect(new AdminSecret({ kind: 'token', token }).accepts(cookie, now)).toBe(true);
    expect(secret.accepts(cookie, now + 61_000)).toBe(false);
    expect(new AdminSecret({ kind: 'token', token: `${token}2` }).accepts(cookie, now)).toBe(false);
    const [expiry, signature] = cookie.split('.');
    expect(secret.accepts(`${Number(expiry) + 1}.${signature}`, now)).toBe(false);
    for (const junk of [undefined, '', '.', 'abc', `${cookie}.x`, `-1.${signature}`]) {
      expect(secret.accepts(junk, now)).toBe(false);
    }
  });
});
