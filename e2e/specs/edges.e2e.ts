import { readFile } from 'node:fs/promises';
import { MESSAGES } from '@selfie-mosaic/contract';
import { describe, expect, inject, it } from 'vitest';
import { openPhone } from '../support/browser.js';
import { facePhoto } from '../support/fixtures.js';
import { reachCamera, storedSession, takePhoto, waitForArtwork } from '../support/flow.js';

const de = JSON.parse(await readFile(new URL('../../apps/web/src/locales/de.json', import.meta.url), 'utf8'));

describe('paths off the happy one', () => {
  it('sends a visitor who answers No to the exit page', async () => {
    const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo') });
    try {
      await phone.page.goto('/de/de/start');
      await phone.page.getByTestId('age-no').click();
      await phone.page.waitForURL('**/de/de/exit');
      await expect.poll(() => phone.page.getByRole('heading', { level: 1 }).textContent()).toBe(de.exit.heading);
    } finally {
      await phone.close();
    }
  });

  it('shows the 404 page, with status 404, for an unknown path', async () => {
    const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo') });
    try {
      const response = await phone.page.goto('/de/de/nowhere');
      expect(response?.status()).toBe(404);
      await expect
        .poll(() => phone.page.getByRole('heading', { level: 1 }).textContent())
        .toBe(de.errorPage.notFoundTitle);
    } finally {
      await phone.close();
    }
  });

  for (const [camera, message] of [
    ['denied', MESSAGES.cameraPermissionDenied],
    ['none', MESSAGES.cameraNotFound],
  ] as const) {
    it(`tells the visitor when the camera is ${camera === 'none' ? 'missing' : 'denied'}`, async () => {
      const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), camera });
      try {
        await reachCamera(phone.page, 'gb', 'en');
        await phone.page.getByTestId('camera-allow').click();
        await expect
          .poll(() => phone.page.getByRole('alert').allTextContents(), { timeout: 15_000 })
          .toContain(message);
      } finally {
        await phone.close();
      }
    });
  }
});

describe('coming back while the image is queued', () => {
  it('resumes the same job after a reload', async () => {
    const baseURL = inject('baseURL');
    const phone = await openPhone({ baseURL, video: inject('faceVideo') });
    try {
      const { page } = phone;
      await reachCamera(page, 'gb', 'en');
      await takePhoto(page);
      // Other visitors' photos, sent just before ours, keep our job waiting long enough to reload.
      await queueOtherVisitors(baseURL, 40);
      await page.getByTestId('photo-continue').click();
      await page.waitForURL('**/gb/en/result');
      await expect.poll(async () => (await storedSession(page)).currentJobId).toBeTruthy();
      const before = (await storedSession(page)).currentJobId;
      await page.reload();
      await page.getByTestId('queue-message').waitFor();
      expect((await storedSession(page)).currentJobId).toBe(before);
      await waitForArtwork(page);
      expect((await storedSession(page)).currentJobId).toBe(before);
    } finally {
      await phone.close();
    }
  });
});

/** Uploads photos as other visitors would, through the API, so the queue is not empty. */
async function queueOtherVisitors(baseURL: string, count: number): Promise<void> {
  const { createSessionId, XSRF } = await import('@selfie-mosaic/contract');
  const photo = await readFile(await facePhoto());
  for (let i = 0; i < count; i++) {
    const first = await fetch(`${baseURL}/healthz`);
    const cookie =
      (first.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`)) ?? '').split(';')[0] ?? '';
    const headers = { cookie, [XSRF.header]: decodeURIComponent(cookie.slice(XSRF.cookie.length + 1)) };
    const sessionId = createSessionId();
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
