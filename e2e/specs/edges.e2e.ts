import { readFile } from 'node:fs/promises';
import { MESSAGES } from '@selfie-mosaic/contract';
import { describe, expect, inject, it } from 'vitest';
import { openPhone } from '../support/browser.js';
import { reachCamera, storedSession, takePhoto, waitForArtwork } from '../support/flow.js';
import { queueOtherVisitors } from '../support/visitors.js';

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
