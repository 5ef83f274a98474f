import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { facePhoto } from './fixtures.js';

/**
 * Uploads photos as other visitors would, through the API, so the queue is not empty: each views the
 * start, terms and photo screens (their browser's page views), consents, then uploads.
 */
export async function queueOtherVisitors(baseURL: string, count: number): Promise<void> {
  const { createSessionId, screenPath, XSRF } = await import('@selfie-mosaic/contract');
  const photo = await readFile(await facePhoto());
  for (let i = 0; i < count; i++) {
    const first = await fetch(`${baseURL}/healthz`);
    const cookie =
      (first.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`)) ?? '').split(';')[0] ?? '';
    const headers = { cookie, [XSRF.header]: decodeURIComponent(cookie.slice(XSRF.cookie.length + 1)) };
    const sessionId = createSessionId();
    for (const screen of ['start', 'curious', 'photo'] as const) {
      const view = await fetch(`${baseURL}/api/analytics/pageview`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          country_iso: 'gb',
          language: 'en',
          page_path: screenPath('gb', 'en', screen),
          ip_address: null,
          user_agent: null,
        }),
      });
      expect(view.status).toBe(204);
    }
    const consent = await fetch(`${baseURL}/api/consent`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        country_iso: 'gb',
        language: 'en',
        question_answer: 'yes',
        consent_given: true,
        ip_address: null,
        user_session_id: sessionId,
      }),
    });
    expect(consent.status).toBe(201);
    const form = new FormData();
    form.set('user_session_id', sessionId);
    form.set('photo', new Blob([photo], { type: 'image/jpeg' }), 'selfie.jpg');
    const upload = await fetch(`${baseURL}/api/upload`, { method: 'POST', headers, body: form });
    expect(upload.status).toBe(202);
  }
}
