import { type AnalyticsEvent, XSRF } from '@selfie-mosaic/contract';
import { apiBase } from './api-base';
import { readCookie } from './cookies';

/**
 * Sends one analytics record (docs/product.md#page-titles-and-page-views); a failure is only logged, it never
 * bothers the visitor. A plain `fetch`, not the app's HTTP client: every first screen sends one, and the start
 * screen should not download the client (about 4 KB gzip) for it. Same rules as the client for a POST: no retry,
 * the XSRF cookie sent back as its header, and one more try when the refusal handed out that cookie.
 */
async function sendAnalytics(endpoint: string, fields: Record<string, string>, what: string): Promise<void> {
  const body = JSON.stringify({ ...fields, ip_address: null, user_agent: globalThis.navigator?.userAgent ?? null });
  const post = () => {
    const token = readCookie(XSRF.cookie);
    return fetch(`${apiBase()}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { [XSRF.header]: token } : {}) },
      body,
      // The visitor may move on at once (or leave for the download): the record still goes out.
      keepalive: true,
    });
  };
  try {
    const hadToken = readCookie(XSRF.cookie) !== null;
    let response = await post();
    if (response.status === 403 && !hadToken && readCookie(XSRF.cookie) !== null) response = await post();
    if (!response.ok) throw new Error(`the API answered ${response.status}`);
  } catch (error) {
    console.warn(`${what} not recorded`, error);
  }
}

export function sendPageview(country: string, language: string, pagePath: string): Promise<void> {
  return sendAnalytics('/api/analytics/pageview', { country_iso: country, language, page_path: pagePath }, 'pageview');
}

/** The visitor downloaded or shared the artwork (the funnel's last steps), counted like a page view. */
export function sendEvent(event: AnalyticsEvent, country: string, language: string): Promise<void> {
  return sendAnalytics('/api/analytics/event', { event, country_iso: country, language }, event);
}
