import { screenPath } from './page-paths.js';

/**
 * Desktop → phone: a visit that began on a computer goes on on the visitor's phone. The desktop shows a
 * code carrying a single-use hand-off token; the phone that opens it continues the same session under
 * the consent the desktop recorded, and the desktop follows the hand-off (then the job) live.
 *
 * The facts both sides share without the schemas: the web app's screens import these, and so load no zod.
 */

const MINUTE = 60_000;

export const HANDOFF = {
  /** How long a code can be used. */
  claimMs: 10 * MINUTE,
  /** How long the desktop can follow a claimed hand-off until the phone's photo arrives. */
  followMs: 60 * MINUTE,
  /** Token length in Crockford base32 characters: 140 random bits. */
  tokenChars: 28,
  /** The token is shown in groups of this many characters, joined by `-`, easy to read and type. */
  groupChars: 4,
} as const;

/** The phone's screen that claims a token; the token travels in the address's fragment, never to a server log. */
export const HANDOFF_SCREEN = 'continue';

/**
 * Where a hand-off is: `waiting` for a phone to open the code, `connected` (a phone opened it),
 * `uploading` (the phone is sending its photo), `submitted` (the photo was accepted as `job_id`), or
 * `expired` (the code ran out unused, or the hand-off ended without a photo).
 */
export const HANDOFF_STATES = ['waiting', 'connected', 'uploading', 'submitted', 'expired'] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];

/** Nothing more happens to a hand-off in these states: its stream ends and its follower stops. */
export function isFinalHandoffState(state: HandoffState): boolean {
  return state === 'submitted' || state === 'expired';
}

/** Crockford's base32: no I, L, O or U, so a typed token survives the usual misreadings. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const READS_AS: Record<string, string> = { O: '0', I: '1', L: '1' };

export const HANDOFF_TOKEN_PATTERN = new RegExp(`^[${ALPHABET}]{${HANDOFF.tokenChars}}$`);

/** A fresh token: 28 characters of 5 random bits each. */
export function createHandoffToken(random: (n: number) => Uint8Array = randomBytes): string {
  return Array.from(random(HANDOFF.tokenChars), (byte) => ALPHABET[byte & 31]).join('');
}

/** The token as typed or scanned (any case, with or without dashes and spaces), or null if it cannot be one. */
export function normalizeHandoffToken(typed: string): string | null {
  const token = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[OIL]/g, (char) => READS_AS[char] ?? char);
  return HANDOFF_TOKEN_PATTERN.test(token) ? token : null;
}

/** `K7M2-9XD4-…`: the token as printed under the code and carried in the link. */
export function groupHandoffToken(token: string): string {
  return token.match(new RegExp(`.{1,${HANDOFF.groupChars}}`, 'g'))?.join('-') ?? token;
}

/**
 * The link the code carries: the public origin the visitor used, the phone's screen in the same market
 * and locale, and the token in the fragment.
 */
export function handoffUrl(origin: string, country: string, language: string, token: string): string {
  return `${origin}${screenPath(country, language, HANDOFF_SCREEN)}#${groupHandoffToken(token)}`;
}

function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}
