import { apiRequest } from './http';

/** Sends one page view (SPEC §7); a failure is only logged, it never bothers the visitor. */
export async function sendPageview(country: string, language: string, pagePath: string): Promise<void> {
  try {
    await apiRequest('/api/analytics/pageview', {
      method: 'POST',
      body: {
        country_iso: country,
        language,
        page_path: pagePath,
        ip_address: null,
        user_agent: globalThis.navigator?.userAgent ?? null,
      },
    });
  } catch (error) {
    console.warn('pageview not recorded', error);
  }
}
