/** `session-<timestamp digits>-<alphanumerics>` (docs/product.md#session). */
export const SESSION_ID_PATTERN = /^session-\d{1,16}-[a-z0-9]{4,32}$/i;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Builds a session id from a timestamp plus a random string, as the client does. */
export function createSessionId(now = Date.now(), random: (n: number) => Uint8Array = randomBytes): string {
  const suffix = Array.from(random(12), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `session-${now}-${suffix}`;
}

function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}
