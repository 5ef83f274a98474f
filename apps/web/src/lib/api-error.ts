import { clientErrorCode, type ErrorCode, isApiErrorCode } from '@selfie-mosaic/contract';

/**
 * A failed API call as the app handles it: the `code` to translate and the HTTP `status` (0 when no
 * answer came). The English `error` of the answer is kept as the message, for the console only.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiRequestError';
  }
}

/**
 * The catalogue code of an error answer, else a web-side code: `network` when nothing usable came
 * back (offline, dropped connection), or the status class of an answer without a code (a proxy's
 * HTML 502, an older server).
 */
export function toApiRequestError(error: unknown): ApiRequestError {
  if (error instanceof ApiRequestError) return error;
  const { status, data } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    data?: { code?: unknown; error?: unknown } | null;
  };
  const answered = typeof status === 'number' && status >= 400 ? status : 0;
  const code = answered && isApiErrorCode(data?.code) ? data.code : clientErrorCode(answered);
  const english = typeof data?.error === 'string' ? data.error : String((error as Error | undefined)?.message ?? error);
  return new ApiRequestError(code, answered, english, { cause: error });
}

/** The code of any failure: an API call's, else undefined (a bug, not an answer). */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  return error instanceof ApiRequestError ? error.code : undefined;
}
