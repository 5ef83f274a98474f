import { MESSAGES, type MessageKey } from './messages.js';

/**
 * The API's error catalogue: one code per situation, with its HTTP status and the message a visitor
 * may see. Every error body is `{ error: message, code }` (docs/architecture.md#api): `code` is the key
 * here, and the web app translates by it; `error` is English for developers and may be more specific.
 */
export const API_ERRORS = {
  invalidField: { status: 400, message: 'The request is not valid. Please reload the page and try again.' },
  invalidJson: { status: 400, message: 'The request body is not valid JSON' },
  emptyPhoto: { status: 400, message: 'The photo arrived empty. Please take it again.' },
  truncatedPhoto: { status: 400, message: 'The photo arrived incomplete. Please check your connection and try again.' },
  unreadablePhoto: { status: 400, message: MESSAGES.unreadableImage },
  malformedUpload: { status: 400, message: 'The upload could not be read. Please try again.' },
  badUrl: { status: 400, message: 'The address is not valid' },
  xsrf: { status: 403, message: 'The security check of this page failed. Please reload the page and try again.' },
  noConsent: {
    status: 403,
    message: 'We have no record of your consent. Please go back to the start and accept the terms again.',
  },
  unauthorized: { status: 401, message: 'Please sign in with the operator token.' },
  notFound: { status: 404, message: 'Not found' },
  jobNotFound: { status: 404, message: 'We could not find your image. Please take a new photo.' },
  resultNotFound: { status: 404, message: MESSAGES.resultNotFound },
  handoffNotFound: { status: 404, message: 'This phone link has ended. Please show a new code.' },
  handoffInvalid: {
    status: 410,
    message: 'This code no longer works: a code works once, for 10 minutes. Please start again or show a new code.',
  },
  overloaded: { status: 408, message: MESSAGES.serverHeavyLoad },
  requestTimeout: { status: 408, message: 'The request took too long. Please check your connection and try again.' },
  tooLarge: { status: 413, message: 'The photo is too large. The limit is 10 MB and 40 megapixels.' },
  bodyTooLarge: { status: 413, message: 'The request body is too large' },
  unsupportedMedia: { status: 415, message: 'The photo must be a JPEG, PNG, WebP or HEIC image' },
  animatedImage: { status: 415, message: 'Animated images cannot be used. Please send a still photo.' },
  rateLimited: { status: 429, message: 'Too many requests. Please wait a moment and try again.' },
  headersTooLarge: { status: 431, message: 'The request headers are too large' },
  queueFull: { status: 503, message: 'We are creating many images right now. Please try again in a minute.' },
  notReady: { status: 503, message: 'The service is starting or stopping' },
  storageFull: { status: 507, message: 'We cannot take new photos right now. Please try again in a few minutes.' },
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** Every catalogue code, for schemas (`z.enum`) and exhaustive checks. */
export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERRORS, value);
}

/**
 * Failures the web app meets without a usable answer from the API: no answer at all (offline, DNS,
 * a dropped connection), or an answer without a catalogue code (a proxy's HTML 502, an old server).
 */
export const CLIENT_ERRORS = {
  network: 'We could not reach our server. Please check your internet connection and try again.',
  unknownClientError: 'Something went wrong with this request. Please reload the page and try again.',
  unknownServerError: 'Our server is not answering right now. Please try again in a minute.',
} as const;

export type ClientErrorCode = keyof typeof CLIENT_ERRORS;

/** Every code an error can carry in the web app: the API's, and its own. */
export type ErrorCode = ApiErrorCode | ClientErrorCode;

/** The English message of every error code: the `errors` section of the web app's copy. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  ...(Object.fromEntries(Object.entries(API_ERRORS).map(([code, { message }]) => [code, message])) as Record<
    ApiErrorCode,
    string
  >),
  ...CLIENT_ERRORS,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return isApiErrorCode(value) || (typeof value === 'string' && Object.hasOwn(CLIENT_ERRORS, value));
}

/** The web-side code for a failure whose answer carried none: by status class, or no answer at all. */
export function clientErrorCode(status: number | undefined): ClientErrorCode {
  if (status === undefined || status === 0) return 'network';
  return status >= 500 ? 'unknownServerError' : 'unknownClientError';
}

/** An error the API answers with its catalogue status and message (or a more specific message). */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(code: ApiErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? API_ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = API_ERRORS[code].status;
    this.headers = headers;
  }
}

/**
 * Why the art engine refused a photo. Each code carries a message key the web app translates;
 * the job's `error_message` holds the English text of that key.
 */
export const REFUSALS = {
  no_face: 'noFace',
  face_too_small: 'faceTooSmall',
  multiple_faces: 'multipleFaces',
  too_dark: 'tooDark',
  unreadable_image: 'unreadableImage',
  render_failed: 'renderFailed',
} as const satisfies Record<string, MessageKey>;

export type RefusalCode = keyof typeof REFUSALS;

export function refusalMessage(code: RefusalCode): string {
  return MESSAGES[REFUSALS[code]];
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && Object.hasOwn(REFUSALS, value);
}
