import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import { STORY_CLIP, screenPath } from '@selfie-mosaic/contract';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { ssim } from '../../packages/mosaic/src/testing/ssim.js';
import { openPhone } from '../support/browser.js';
import { expectAccessible, reachCamera, snap, takePhoto, waitForArtwork } from '../support/flow.js';

/** What the stand-in share sheet keeps: Linux Chromium has no Web Share (TESTING.md). */
const SHARE_STAND_IN = `
  window.__shared = [];
  navigator.canShare = (data) => Array.isArray(data?.files) && data.files.length > 0;
  navigator.share = async (data) => { window.__shared.push(data); };
`;

/** The video as ffprobe reads it. */
interface Probe {
  codec: string;
  width: number;
  height: number;
  seconds: number;
  format: string;
}

function probe(file: string): Probe {
  const out = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  ) as {
    streams: { codec_type: string; codec_name: string; width: number; height: number }[];
    format: Record<string, string>;
  };
  const video = out.streams.find((s) => s.codec_type === 'video');
  return {
    codec: video?.codec_name ?? 'none',
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    seconds: Number(out.format.duration),
    format: out.format.format_name ?? '',
  };
}

/** The clip's last frame as a PNG, decoded by ffmpeg. */
function lastFrame(file: string, dir: string): Buffer {
  const out = join(dir, 'last.png');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-sseof',
    '-0.5',
    '-i',
    file,
    '-update',
    '1',
    '-frames:v',
    '99',
    out,
  ]);
  return readFileSync(out);
}

/** SSIM of two pictures at a quarter of the story's size, in grey (the clip is 4:2:0 video, the story a JPEG). */
async function similarity(a: Buffer, b: Buffer): Promise<number> {
  const width = STORY_CLIP.width / 4;
  const height = STORY_CLIP.height / 4;
  const grey = async (image: Buffer) =>
    Float32Array.from(await sharp(image).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer());
  return ssim(await grey(a), await grey(b), width, height);
}

/** The files the stand-in share sheet was given, as bytes. */
async function sharedFiles(page: Page): Promise<{ name: string; type: string; bytes: Buffer }[]> {
  const files = await page.evaluate(async () => {
    const shared = (window as unknown as { __shared: ShareData[] }).__shared;
    return Promise.all(
      shared.flatMap((data) =>
        (data.files ?? []).map(async (file) => {
          const url = await new Promise<string>((resolve) => {
            const reader = new FileReader();
            reader.onload = () => resolve(String(reader.result));
            reader.readAsDataURL(file);
          });
          return { name: file.name, type: file.type, base64: url.slice(url.indexOf(',') + 1) };
        }),
      ),
    );
  });
  return files.map(({ name, type, base64 }) => ({ name, type, bytes: Buffer.from(base64, 'base64') }));
}

const clipSeconds = (STORY_CLIP.layingMs + STORY_CLIP.holdMs) / 1000;

describe('the story clip', () => {
  for (const [country, locale] of [
    ['gb', 'en'],
    ['ae', 'ae-ar'],
  ] as const) {
    it(`${locale}: made in the browser, downloaded and shared as a 1080×1920 video ending on the story`, async () => {
      const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), width: 360 });
      const dir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-clip-'));
      try {
        const { page, context } = phone;
        await context.addInitScript(SHARE_STAND_IN);
        const events: string[] = [];
        page.on('request', (request) => {
          if (request.url().endsWith('/api/analytics/event')) events.push(JSON.parse(request.postData() ?? '{}').event);
        });
        await reachCamera(page, country, locale);
        await takePhoto(page);
        await page.getByTestId('photo-continue').click();
        await page.waitForURL(`**${screenPath(country, locale, 'result')}`);
        await waitForArtwork(page);

        // Offered beside the two pictures once the browser said it can encode it; nothing is made before it is chosen.
        const option = page.getByTestId('format-clip');
        await option.waitFor({ state: 'attached' });
        expect(await page.getByTestId('format-switch').getByRole('radio').count()).toBe(3);
        await option.check();
        await page.getByTestId('clip-making').waitFor();
        await snap(page, locale, '10-result-clip-making', { settleMs: 0 });
        const video = page.getByTestId('clip-video');
        await video.waitFor({ timeout: 60_000 });
        await expect
          .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth), { timeout: 10_000 })
          .toBe(STORY_CLIP.width);
        await expectAccessible(page, 'result (clip)');
        await snap(page, locale, '10-result-clip');

        const [download, counted] = await Promise.all([
          page.waitForEvent('download'),
          page.waitForResponse((response) => response.url().endsWith('/api/analytics/event')),
          page.getByTestId('result-download').click(),
        ]);
        expect(counted.status()).toBe(204);
        expect(JSON.parse(counted.request().postData() ?? '{}')).toMatchObject({ event: 'download', language: locale });
        expect(download.suggestedFilename()).toMatch(/-story\.(mp4|webm)$/);
        const saved = join(dir, download.suggestedFilename());
        await download.saveAs(saved);

        const sharedCount = page.waitForResponse(
          (response) =>
            response.url().endsWith('/api/analytics/event') &&
            JSON.parse(response.request().postData() ?? '{}').event === 'share',
        );
        await page.getByTestId('result-share').click();
        expect((await sharedCount).status()).toBe(204);
        expect(events).toEqual(['download', 'share']);
        const [shared, ...more] = await sharedFiles(page);
        expect(more).toEqual([]);
        expect(shared?.name).toBe(download.suggestedFilename());
        expect(shared?.type).toBe(saved.endsWith('.mp4') ? 'video/mp4' : 'video/webm');
        // The same file both ways.
        expect(shared?.bytes.equals(readFileSync(saved))).toBe(true);

        const video1 = probe(saved);
        expect(video1).toMatchObject({ width: STORY_CLIP.width, height: STORY_CLIP.height });
        expect(saved.endsWith('.mp4') ? ['h264'] : ['vp9', 'vp8']).toContain(video1.codec);
        expect(video1.seconds).toBeGreaterThan(clipSeconds - 0.2);
        expect(video1.seconds).toBeLessThan(clipSeconds + 0.2);
        expect(readFileSync(saved).length).toBeLessThanOrEqual(STORY_CLIP.maxBytes);

        // It ends on the finished story, wordmark and all.
        const storyUrl = await page.getByTestId('clip-video').getAttribute('poster');
        const story = Buffer.from(await (await page.request.get(storyUrl ?? '')).body());
        const last = lastFrame(saved, dir);
        writeFileSync(join(dir, 'story.jpg'), story);
        const likeness = await similarity(last, story);
        console.log(
          `${locale} clip: ${JSON.stringify(video1)}, ${readFileSync(saved).length} bytes, last frame SSIM ${likeness.toFixed(3)}`,
        );
        expect(likeness).toBeGreaterThanOrEqual(0.9);

        // A browser without an encoder: the same artwork, two formats and no clip.
        await context.addInitScript(() => {
          delete (window as { VideoEncoder?: unknown }).VideoEncoder;
        });
        await page.reload();
        await waitForArtwork(page);
        await page.getByTestId('format-story').waitFor();
        expect(await page.evaluate(() => 'VideoEncoder' in window)).toBe(false);
        // Detection answers at once without an encoder; give it a moment to (wrongly) add the option.
        await page.waitForTimeout(1000);
        expect(await page.getByTestId('format-switch').getByRole('radio').count()).toBe(2);
        expect(await page.getByTestId('format-clip').count()).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await phone.close();
      }
    });
  }

  it('at 360 px, in every language of the campaign, the three formats fit side by side, each on one line', async () => {
    const phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo'), width: 360 });
    try {
      const { page } = phone;
      await reachCamera(page, 'gb', 'en');
      await takePhoto(page);
      await page.getByTestId('photo-continue').click();
      await waitForArtwork(page);
      const seen = new Set<string>();
      const misfits: string[] = [];
      for (const market of DEFAULT_CAMPAIGN.markets) {
        for (const locale of market.locales) {
          if (seen.has(locale)) continue;
          seen.add(locale);
          await page.goto(screenPath(market.country, locale, 'result'));
          await page.getByTestId('format-clip').waitFor({ state: 'attached' });
          await page.evaluate(() => document.fonts.ready);
          const fit = await page.getByTestId('format-switch').evaluate((fieldset) => {
            const options = [...fieldset.querySelectorAll<HTMLElement>('.format-switch__option')];
            const widths = options.map((o) => o.getBoundingClientRect().width);
            const overflowing = options
              .map((o) => {
                const label = o.querySelector<HTMLElement>('.format-switch__label');
                const box = o.getBoundingClientRect();
                const text = label?.getBoundingClientRect();
                return text && (text.left < box.left || text.right > box.right) ? label?.textContent : null;
              })
              .filter(Boolean);
            return {
              overflowing,
              unequal: Math.max(...widths) - Math.min(...widths) > 1,
              wider: fieldset.scrollWidth > fieldset.clientWidth,
              room: Math.min(
                ...options.map((o) => {
                  const label = o.querySelector<HTMLElement>('.format-switch__label');
                  const box = o.getBoundingClientRect();
                  const text = label?.getBoundingClientRect();
                  return text ? Math.min(text.left - box.left, box.right - text.right) : 0;
                }),
              ),
            };
          });
          if (fit.overflowing.length > 0 || fit.unequal || fit.wider) misfits.push(`${locale}: ${JSON.stringify(fit)}`);
        }
      }
      expect(seen.size).toBe(35);
      expect(misfits).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
