import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** How long one secret is used before a fresh one replaces it (rotation). */
export const SECRET_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How often a process asks Redis again before its secret expires: a Redis that lost its data gets the
 * secret back from the first process to ask, so the processes do not count with different secrets for long.
 */
const RECHECK_MS = 60_000;
/** How long a process that could not reach Redis waits before asking again, so an outage costs no round trip per request. */
const RETRY_MS = 1000;
const SECRET_BYTES = 32;

interface Held {
  secret: Buffer;
  expiresAt: number;
}

/**
 * A random secret the processes sharing one Redis agree on, replaced by a fresh one when it expires. It
 * lives under one key with an expiry: the first process to find the key missing writes its secret there
 * (SET NX) and every process reads back whatever is there, so all of them use the same one. Nobody has to
 * configure or rotate it.
 */
export class SharedSecret {
  private held: Held | undefined;
  private askAt = 0;
  private asking: Promise<Buffer> | undefined;
  /** Only used while Redis cannot be reached, when the counters the secret keys cannot be reached either. */
  private readonly standIn = randomBytes(SECRET_BYTES);

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly lifetimeMs = SECRET_LIFETIME_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The secret to use now. Never rejects: a limiter that cannot reach Redis lets requests through. */
  current(): Promise<Buffer> {
    if (this.now() < this.askAt) return Promise.resolve(this.held?.secret ?? this.standIn);
    this.asking ??= this.ask().finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async ask(): Promise<Buffer> {
    const now = this.now();
    // A process offers the secret it holds until that one expires, with its expiry, so a Redis that lost it
    // gets the same one back; past the expiry it offers a fresh one, and the first offer written wins.
    const offer: Held =
      this.held && now < this.held.expiresAt
        ? this.held
        : { secret: randomBytes(SECRET_BYTES), expiresAt: now + this.lifetimeMs };
    try {
      const replies = await this.redis
        .multi()
        .set(this.key, offer.secret.toString('base64'), 'PX', offer.expiresAt - now, 'NX')
        .get(this.key)
        .pttl(this.key)
        .exec();
      const [, stored] = replies?.[1] ?? [];
      const [, ttl] = replies?.[2] ?? [];
      if (typeof stored !== 'string' || typeof ttl !== 'number' || ttl <= 0) throw new Error('secret not read back');
      this.held = { secret: Buffer.from(stored, 'base64'), expiresAt: now + ttl };
      this.askAt = now + Math.min(ttl, RECHECK_MS);
    } catch {
      this.askAt = now + RETRY_MS;
    }
    return this.held?.secret ?? this.standIn;
  }
}
