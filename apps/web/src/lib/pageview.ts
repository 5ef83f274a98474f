import { XSRF } from '@selfie-mosaic/contract';
import { apiBase } from './api-base';
import { readCookie } from './cookies';

/**
 * Sends one page view (docs/product.md#page-titles-and-page-views); a failure is only logged, it never bothers
 * the visitor. A plain `fetch`, not the app's HTTP client: every first screen sends one, and the start screen
 * should not download the client (about 4 KB gzip) for it. Same rules as the client for a POST: no retry, the
 * XSRF cookie sent back as its header, and one more try when the refusal handed out that cookie.
 */
export async function sendPageview(country: string, language: string, pagePath: string): Promise<void> {
  const body = JSON.stringify({
    country_iso: country,
    language,
    page_path: pagePath,
    ip_address: null,
    user_agent: globalThis.navigator?.userAgent ?? null,
  });
  const post = () => {
    const token = readCookie(XSRF.cookie);
    return fetch(`${apiBase()}/api/analytics/pageview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { [XSRF.header]: token } : {}) },
      body,
      // The visitor may move on at once: the page view still goes out.
      keepalive: true,
    });
  };
  try {
    const hadToken = readCookie(XSRF.cookie) !== null;
    let response = await post();
    if (response.status === 403 && !hadToken && readCookie(XSRF.cookie) !== null) response = await post();
    if (!response.ok) throw new Error(`the API answered ${response.status}`);
  } catch (error) {
    console.warn('pageview not recorded', error);
  }
}
