import { HTTP_RETRY, XSRF } from '@selfie-mosaic/contract';
import { type FetchOptions, ofetch } from 'ofetch';
import { apiBase } from './api-base';
import { toApiRequestError } from './api-error';
import { readCookie } from './cookies';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One retry for methods that change nothing, none for the others (docs/product.md#talking-to-the-api). */
export function retriesFor(method: string | undefined): number {
  return SAFE_METHODS.has((method ?? 'GET').toUpperCase())
    ? HTTP_RETRY.safeMethodRetries
    : HTTP_RETRY.mutatingMethodRetries;
}

/**
 * The app's HTTP client: ofetch with the retry policy (docs/product.md#talking-to-the-api), no default timeout, and
 * the double-submit XSRF header on every request that changes something.
 */
const http = ofetch.create({
  retryStatusCodes: [...HTTP_RETRY.statusCodes],
  onRequest({ options }) {
    const method = (options.method ?? 'GET').toUpperCase();
    if (options.retry === undefined) options.retry = retriesFor(method);
    if (!SAFE_METHODS.has(method)) {
      const token = readCookie(XSRF.cookie);
      if (token) options.headers.set(XSRF.header, token);
    }
  },
});

export async function apiRequest<T>(path: string, options: FetchOptions<'json'> = {}): Promise<T> {
  const url = `${apiBase()}${path}`;
  const hadToken = readCookie(XSRF.cookie) !== null;
  const send = () => http<T>(url, options as FetchOptions<'json'>);
  try {
    return await send();
  } catch (error) {
    // A page not served by the API (dev server, HTML on a CDN) has no XSRF cookie before its first
    // call; the 403 answer sets one, and the refused request changed nothing, so it goes once more.
    const status = (error as { status?: number }).status;
    if (!hadToken && status === 403 && readCookie(XSRF.cookie) !== null) {
      return send().catch((again: unknown) => {
        throw toApiRequestError(again);
      });
    }
    throw toApiRequestError(error);
  }
}
