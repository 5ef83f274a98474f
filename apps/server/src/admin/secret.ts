import { createHash, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * The operators' secret and the sign-in cookie (docs/architecture.md#operators). The cookie holds only its
 * expiry and an HMAC of it under a key derived from the secret: every API process behind a load balancer
 * accepts it without shared session state, and changing the secret signs everyone out.
 */

/** A token shorter than this could be guessed within the sign-in rate limit's patience. */
export const ADMIN_TOKEN_MIN_LENGTH = 24;

/** `scrypt$N=16384,r=8,p=1$<salt, base64>$<hash, base64>`: names its own parameters, so they can grow. */
const HASH_FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
const DEFAULT_COST = { N: 16_384, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;

interface PasswordHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** The parsed hash, or why it is not one (for the start-up configuration message). */
export function parsePasswordHash(text: string): PasswordHash | string {
  const match = HASH_FORMAT.exec(text);
  if (!match) return 'expected scrypt$N=…,r=…,p=…$salt$hash as printed by npm run admin:hash -w apps/server';
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = Buffer.from(match[4] as string, 'base64');
  const hash = Buffer.from(match[5] as string, 'base64');
  if (N < 2 ** 14 || N > 2 ** 20 || (N & (N - 1)) !== 0) return 'N must be a power of two from 16384 to 1048576';
  if (r < 1 || r > 32 || p < 1 || p > 16) return 'r must be 1…32 and p 1…16';
  if (salt.length < SALT_BYTES || hash.length < 16) return 'salt or hash too short';
  return { N, r, p, salt, hash };
}

function derive(password: string, salt: Buffer, length: number, cost: { N: number; r: number; p: number }) {
  return new Promise<Buffer>((resolve, reject) => {
    // scrypt needs 128·N·r bytes; the default cap (32 MB) would refuse the larger costs the format allows.
    const maxmem = 256 * cost.N * cost.r;
    scrypt(password, salt, length, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A fresh hash of `password` in the self-describing format, for ADMIN_PASSWORD_HASH. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, DEFAULT_COST);
  const { N, r, p } = DEFAULT_COST;
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export type AdminSecretConfig = { kind: 'token'; token: string } | { kind: 'passwordHash'; passwordHash: string };

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export class AdminSecret {
  private readonly cookieKey: Buffer;
  private readonly passwordHash: PasswordHash | undefined;

  constructor(private readonly config: AdminSecretConfig) {
    const secret = config.kind === 'token' ? config.token : config.passwordHash;
    this.cookieKey = Buffer.from(hkdfSync('sha256', secret, 'selfie-mosaic', 'admin session cookie', 32));
    if (config.kind === 'passwordHash') {
      const parsed = parsePasswordHash(config.passwordHash);
      if (typeof parsed === 'string') throw new Error(`ADMIN_PASSWORD_HASH: ${parsed}`);
      this.passwordHash = parsed;
    }
  }

  /** Whether `given` is the token (or the password), compared in constant time on equal-length digests. */
  async verify(given: string): Promise<boolean> {
    if (this.config.kind === 'token') return timingSafeEqual(sha256(given), sha256(this.config.token));
    const stored = this.passwordHash as PasswordHash;
    const derived = await derive(given, stored.salt, stored.hash.length, stored);
    return timingSafeEqual(derived, stored.hash);
  }

  /** The cookie value for a session that ends at `expiresAt` (epoch milliseconds). */
  issue(expiresAt: number): string {
    const expiry = String(Math.floor(expiresAt / 1000));
    return `${expiry}.${this.sign(expiry)}`;
  }

  /** Whether a cookie value was issued under this secret and has not expired. */
  accepts(value: string | undefined, now: number): boolean {
    const [expiry, signature, ...rest] = (value ?? '').split('.');
    if (!expiry || !signature || rest.length > 0 || !/^\d{1,12}$/.test(expiry)) return false;
    const expected = Buffer.from(this.sign(expiry));
    const actual = Buffer.from(signature);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return false;
    return Number(expiry) * 1000 > now;
  }

  private sign(expiry: string): string {
    return createHmac('sha256', this.cookieKey).update(`admin-session:${expiry}`).digest('base64url');
  }
}
