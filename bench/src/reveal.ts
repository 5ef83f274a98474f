import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { devices, type Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser.js';
import { faceVideo } from '../../e2e/support/fixtures.js';
import { reachCamera } from '../../e2e/support/flow.js';
import { machine, median, percentile, table } from './report.js';

/**
 * The result screen's reveal (issue 25) as a mid-range phone would play it: the built app in headless
 * Chromium at a phone's size and pixel density (`PHONE`), the main thread slowed by `THROTTLE` (CDP
 * `Emulation.setCPUThrottlingRate`), a visitor's whole way from the camera to the artwork, the
 * page's animation frames counted between the reveal's marks. Target: ≥ 50 frames per second.
 */

export const REVEAL_TARGET_FPS = 50;
const RUNS = 5;
const THROTTLE = 4;
const PHONE = { width: 390, height: 844, deviceScaleFactor: 3 };
/** What the reveal leaves for a benchmark (apps/web/src/features/result/Reveal.tsx, REVEAL_MARKS). */
const MARKS = { start: 'reveal:start', end: 'reveal:end' };
const webDist = resolve(import.meta.dirname, '../../apps/web/dist');

interface RevealRun {
  fps: number;
  /** The 95th percentile of frame times (intervals between frames), and the longest. */
  p95Ms: number;
  longestMs: number;
  frames: number;
  lengthMs: number;
  load: number;
}

/**
 * Counts the page's animation frames from its first moment. Sent as text: tsx's transform would name
 * the callbacks with a helper the page does not have.
 */
const FRAME_CLOCK = `(() => {
  window.frameTimes = [];
  const tick = (time) => { window.frameTimes.push(time); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})()`;

async function revealOnce(url: string, video: string): Promise<RevealRun> {
  const browser = await launchChromium('face', video);
  try {
    const context = await browser.newContext({
      ...devices['Pixel 7'],
      viewport: { width: PHONE.width, height: PHONE.height },
      deviceScaleFactor: PHONE.deviceScaleFactor,
      baseURL: url,
    });
    const page = await context.newPage();
    await page.addInitScript(FRAME_CLOCK);
    await reachCamera(page, 'gb', 'en');
    await takePhoto(page);
    await page.getByTestId('photo-continue').click();
    // Slowed from the upload on, so the reveal's preparation is slowed too.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const load = loadavg()[0] ?? 0;
    await until(page, `performance.getEntriesByName('${MARKS.end}').length > 0`, 180_000);
    const { start, end, times } = (await page.evaluate(`({
      start: performance.getEntriesByName('${MARKS.start}')[0]?.startTime,
      end: performance.getEntriesByName('${MARKS.end}')[0]?.startTime,
      times: window.frameTimes,
    })`)) as { start?: number; end: number; times: number[] };
    if (start === undefined) throw new Error('The reveal did not play (no reveal:start mark)');
    // A frame's time is when it began, a moment before the reveal's first frame marks its start.
    const frames = times.filter((time) => time >= start - 1 && time <= end);
    const intervals = frames.slice(1).map((time, i) => time - (frames[i] as number));
    const lengthMs = (frames.at(-1) ?? 0) - (frames[0] ?? 0);
    return {
      fps: (intervals.length / lengthMs) * 1000,
      p95Ms: percentile(intervals, 95),
      longestMs: Math.max(...intervals),
      frames: frames.length,
      lengthMs,
      load,
    };
  } finally {
    await browser.close();
  }
}

/** Polls an expression in the page (the app's CSP forbids `waitForFunction`'s string evaluation). */
async function until(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`Still not ${expression} after ${timeoutMs} ms`);
    await page.waitForTimeout(100);
  }
}

async function takePhoto(page: Page): Promise<void> {
  await page.getByTestId('camera-allow').click();
  await until(page, `!document.querySelector('[data-testid="photo-take"]')?.disabled`, 30_000);
  await page.getByTestId('photo-take').click();
  await page.getByTestId('photo-continue').waitFor({ timeout: 15_000 });
}

/** gzip -9 of the build's files for a manifest entry (its JavaScript and CSS), by the entry's source path. */
function chunkGzip(pattern: RegExp): { js: number; css: number } {
  const manifest = JSON.parse(readFileSync(resolve(webDist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[] }
  >;
  const entry = Object.entries(manifest).find(([key]) => pattern.test(key))?.[1];
  if (!entry) throw new Error(`The manifest has no chunk for ${pattern}`);
  const gzip = (file: string) => gzipSync(readFileSync(resolve(webDist, file)), { level: 9 }).length;
  return { js: gzip(entry.file), css: (entry.css ?? []).reduce((sum, file) => sum + gzip(file), 0) };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Plays the reveal RUNS times and returns BENCHMARKS.md's section for it. */
export async function measureReveal(url: string): Promise<string> {
  const video = await faceVideo();
  const runs: RevealRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await revealOnce(url, video);
    console.log(`reveal run ${i + 1}: ${JSON.stringify(run)}`);
    runs.push(run);
  }
  const fps = median(runs.map((r) => r.fps));
  const p95 = median(runs.map((r) => r.p95Ms));
  const startJs = JSON.parse(
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../apps/web/scripts/measure-start-js.mjs')], {
      encoding: 'utf8',
    }),
  ) as { gzip: number; files: string[] };
  const startFiles = startJs.files.map((file) => readFileSync(resolve(webDist, file), 'utf8'));
  const revealInStart = startFiles.some((source) => source.includes(MARKS.start));
  const result = chunkGzip(/features\/result\/ResultScreen\.tsx$/);

  return [
    '## Result screen: the reveal (`npm run bench:reveal -w bench`)',
    '',
    `The built app in headless Chromium (\`--disable-gpu\`: canvases drawn and composited in software) at ${PHONE.width} × ${PHONE.height}`,
    `CSS pixels, ${PHONE.deviceScaleFactor} device pixels each, the main thread slowed ${THROTTLE}× (CDP \`Emulation.setCPUThrottlingRate\`) from`,
    'the upload on. A visitor’s whole way with the e2e face, then the reveal as it plays on the result screen: every',
    '`requestAnimationFrame` of the page between the reveal’s `reveal:start` and `reveal:end` marks. Frames per',
    'second: frames ÷ the time they span; frame time: the interval between two frames (16.7 ms at best); each',
    `figure the median of ${RUNS} runs. ${machine()}, on 2 shared cores.`,
    '',
    table(
      ['measure', 'value', 'target', ''],
      [
        [
          `reveal frames per second (${THROTTLE}× CPU throttle)`,
          fps.toFixed(1),
          `≥ ${REVEAL_TARGET_FPS}`,
          fps >= REVEAL_TARGET_FPS ? 'met' : '**missed**',
        ],
        ['frame time the slowest 5 % of frames reach (95th percentile)', `${p95.toFixed(1)} ms`, '', ''],
        ['longest frame', `${Math.round(median(runs.map((r) => r.longestMs)))} ms`, '', ''],
        ['length of the reveal', `${(median(runs.map((r) => r.lengthMs)) / 1000).toFixed(2)} s`, '4–6 s', ''],
        [
          'start-screen JavaScript (`measure:start-js`), gzip',
          `${kb(startJs.gzip)} KB`,
          'unchanged (96.5 KB before the reveal)',
          '',
        ],
        [
          'reveal code in the start screen’s files',
          revealInStart ? '**yes**' : 'none',
          'none',
          revealInStart ? '**missed**' : 'met',
        ],
        [
          'result screen’s lazy chunk (the reveal is in it), gzip',
          `${kb(result.js)} KB JavaScript, ${kb(result.css)} KB CSS`,
          '',
          '',
        ],
      ],
    ),
    '',
    `Per run (frames per second / 95th-percentile frame time / longest, machine load average as the reveal was awaited): ${runs
      .map(
        (r) =>
          `${r.fps.toFixed(1)} / ${r.p95Ms.toFixed(1)} ms / ${Math.round(r.longestMs)} ms (load ${r.load.toFixed(1)})`,
      )
      .join(', ')}.`,
  ].join('\n');
}
