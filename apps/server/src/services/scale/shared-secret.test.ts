import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { FAIL_FAST } from './redis-options.js';
import { SECRET_LIFETIME_MS, SharedSecret } from './shared-secret.js';

describe('SharedSecret', () => {
  const redis = new Redis(inject('redisUrl'));
  const key = () => `test-${randomUUID()}:rate-limit:secret`;

  afterAll(() => {
    redis.disconnect();
  });

  it('gives every process the same secret, with an expiry', async () => {
    const name = key();
    const [a, b] = [new SharedSecret(redis, name), new SharedSecret(redis, name)];
    const [first, second] = await Promise.all([a.current(), b.current()]);
    expect(first.equals(second)).toBe(true);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const ttl = await redis.pttl(name);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(SECRET_LIFETIME_MS);
    await redis.del(name);
  });

  it('replaces the secret with a fresh one when it expires, still the same for every process', async () => {
    const name = key();
    const lifetimeMs = 300;
    const [a, b] = [new SharedSecret(redis, name, lifetimeMs), new SharedSecret(redis, name, lifetimeMs)];
    const old = await a.current();
    expect((await b.current()).equals(old)).toBe(true);
    await sleep(lifetimeMs + 100);
    const fresh = await b.current();
    expect(fresh.equals(old)).toBe(false);
    expect((await a.current()).equals(fresh)).toBe(true);
    await redis.del(name);
  });

  it('puts the secret back when Redis lost it, so processes started since agree with the others', async () => {
    const name = key();
    let now = Date.now();
    const running = new SharedSecret(redis, name, SECRET_LIFETIME_MS, () => now);
    const secret = await running.current();
    // A Redis restarted without its data.
    await redis.del(name);
    // The running process asks again within minutes and offers what it holds.
    now += 5 * 60_000;
    expect((await running.current()).equals(secret)).toBe(true);
    const started = new SharedSecret(redis, name);
    expect((await started.current()).equals(secret)).toBe(true);
    // Still expiring when it would have: a lost key does not prolong a secret's life.
    expect(await redis.pttl(name)).toBeLessThanOrEqual(SECRET_LIFETIME_MS - 5 * 60_000);
    await redis.del(name);
  });

  it('answers at once while Redis cannot be reached', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { ...FAIL_FAST, retryStrategy: () => null });
    unreachable.on('error', () => {});
    const secret = new SharedSecret(unreachable, key());
    await expect(secret.current()).resolves.toBeInstanceOf(Buffer);
    unreachable.disconnect();
  });
});
