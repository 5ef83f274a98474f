import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../test/answer-fetch';

// The test setup stands in for page views everywhere else; this file checks the real one.
const { sendEvent, sendPageview } = await vi.importActual<typeof import('./pageview')>('./pageview');

function clearXsrfCookie() {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
  document.cookie = 'XSRF-TOKEN=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/';
}

beforeEach(clearXsrfCookie);
afterEach(() => {
  vi.restoreAllMocks();
  clearXsrfCookie();
});

describe('page views', () => {
  it('posts the page as JSON with the XSRF cookie sent back as the header', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
    document.cookie = 'XSRF-TOKEN=tok%3Den; Path=/';
    const fetch = answerFetch(async () => new Response(null, { status: 204 }));
    await sendPageview('de', 'de', '/de/de/start');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/analytics/pageview');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('x-xsrf-token')).toBe('tok=en');
    expect(JSON.parse(String(init?.body))).toEqual({
      country_iso: 'de',
      language: 'de',
      page_path: '/de/de/start',
      ip_address: null,
      user_agent: navigator.userAgent,
    });
  });

  it('tries once more when the refusal handed out the missing XSRF cookie', async () => {
    const tokens: Array<string | null> = [];
    answerFetch(async (_input: RequestInfo | URL, init?: RequestInit) => {
      tokens.push(new Headers(init?.headers).get('x-xsrf-token'));
      if (tokens.length === 1) {
        // biome-ignore lint/suspicious/noDocumentCookie: plays the server's Set-Cookie on the 403.
        document.cookie = 'XSRF-TOKEN=fresh; Path=/';
        return Response.json({ error: 'Missing or invalid XSRF token' }, { status: 403 });
      }
      return new Response(null, { status: 204 });
    });
    await sendPageview('gb', 'en', '/gb/en/start');
    expect(tokens).toEqual([null, 'fresh']);
  });

  it('never retries a failed page view and never throws: it only logs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetch = answerFetch(async () => Response.json({ error: 'busy' }, { status: 503 }));
    await expect(sendPageview('gb', 'en', '/gb/en/start')).resolves.toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('pageview not recorded', expect.any(Error));
    fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(sendPageview('gb', 'en', '/gb/en/start')).resolves.toBeUndefined();
  });
});

describe('download and share events', () => {
  it('posts the event with the market and locale, and nothing of the page', async () => {
    const fetch = answerFetch(async () => new Response(null, { status: 204 }));
    await sendEvent('share', 'fr', 'fr');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/analytics/event');
    expect(init?.keepalive).toBe(true);
    expect(JSON.parse(String(init?.body))).toEqual({
      event: 'share',
      country_iso: 'fr',
      language: 'fr',
      ip_address: null,
      user_agent: navigator.userAgent,
    });
  });

  it('only logs when the event cannot be recorded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answerFetch(async () => Response.json({ error: 'busy' }, { status: 503 }));
    await expect(sendEvent('download', 'de', 'de')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('download not recorded', expect.any(Error));
  });
});
