/** Business constants and API limits (docs/product.md#constants). */

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

/** The notice on the result screen: creating the image can take up to this long. */
export const CREATION_NOTICE_SECONDS = 20;

export const POLL = {
  initialMs: 2000,
  minMs: 2000,
  maxMs: 10_000,
  /** Backoff grows by this factor on an error or a 408. */
  growth: 1.5,
  /** And shrinks by this factor on each successful update without server load. */
  shrink: 0.8,
} as const;

export const STREAM_CONNECT_TIMEOUT_MS = 5 * SECOND;
/** A `: ping` comment keeps proxies from closing a quiet stream. */
export const STREAM_HEARTBEAT_MS = 15 * SECOND;

export const SESSION_TTL_MS = 24 * HOUR;
export const RESULT_TTL_MS = 24 * HOUR;

export const SESSION_STORAGE_KEY = 'selfie-mosaic-session';

export const LOCALE_COOKIE = { name: 'locale', maxAgeDays: 365, path: '/', sameSite: 'lax' } as const;

export const CHUNK_RELOAD_GUARD_MS = 10 * SECOND;
export const IDLE_PRELOAD_DELAY_MS = 1 * SECOND;

export const UPLOAD_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  /** The browser downscales the photo to this long side before upload (docs/product.md#photo-rules). */
  clientMaxSide: 1600,
  mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as readonly string[],
} as const;

export const ARTWORK = { width: 1080, height: 1350, maxBytes: 600 * 1024 } as const;

/**
 * The 9:16 story version of the same artwork (docs/product.md#result). Stories and reels lay their
 * own controls over the top and bottom `safeMargin` pixels, so nothing that matters is placed there.
 */
/** The HTTP client's generic retry (docs/product.md#talking-to-the-api). */
export const HTTP_RETRY = {
  statusCodes: [408, 409, 425, 429, 500, 502, 503, 504] as readonly number[],
  /** Retries for methods that change nothing; mutating methods are never retried. */
  safeMethodRetries: 1,
  mutatingMethodRetries: 0,
} as const;

/** Double-submit cookie names, the common defaults of HTTP clients (axios, Angular). */
export const XSRF = { cookie: 'XSRF-TOKEN', header: 'x-xsrf-token' } as const;
