import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { screenPath } from '@selfie-mosaic/contract';
import { chromium, devices } from 'playwright-core';
import { CHROMIUM_FLAGS as CHROME_FLAGS, CHROMIUM_PATH as CHROMIUM } from '../../e2e/support/browser.js';
import { startServer } from '../../e2e/support/server-process.js';
import { machine, median, table, writeSection } from './report.js';
import { measureReveal } from './reveal.js';
import { measureStoryClip } from './story-clip.js';

/**
 * The start screen as a visitor's phone gets it: the JavaScript it downloads (target of issue 9, with
 * React 19 and react-dom: ≤ 100 KB gzip, 1 KB = 1,024 bytes) and Lighthouse mobile scores
 * (performance ≥ 95, accessibility 100, median of 3 runs); then the story clip made on the result
 * screen (story-clip.ts) and the reveal played there (reveal.ts). `--clip` or `--reveal` measures
 * that one only. Measures the build that is already there
 * (`npm run bench` builds first).
 */

const START_PATH = screenPath('gb', 'en');
const RUNS = 3;
const TARGETS = { jsGzipKb: 100, performance: 95, accessibility: 100 };

interface StartScreenJs {
  files: number;
  gzipBytes: number;
  /** What went over the wire (the server sends the build's brotli files). */
  transferredBytes: number;
}

/** Loads the start screen in a phone-sized Chromium and sums every JavaScript response it fetched. */
async function measureStartScreenJs(url: string): Promise<StartScreenJs> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ ...devices['Pixel 7'] });
    const page = await context.newPage();
    const scripts: Promise<{ gzip: number; transferred: number }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return { gzip: gzipSync(body, { level: 9 }).length, transferred: sizes.responseBodySize };
        })(),
      );
    });
    // The page view is the start screen's last request: by then every script it needs has arrived.
    const pageview = page.waitForRequest((request) => request.url().endsWith('/api/analytics/pageview'));
    await page.goto(`${url}${START_PATH}`, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await pageview;
    // Screens preloaded when the browser is idle (after 1 s) are not part of what the start screen needs.
    const loaded = await Promise.all([...scripts]);
    await context.close();
    return {
      files: loaded.length,
      gzipBytes: loaded.reduce((sum, s) => sum + s.gzip, 0),
      transferredBytes: loaded.reduce((sum, s) => sum + s.transferred, 0),
    };
  } finally {
    await browser.close();
  }
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  failing: string[];
}

interface LighthouseReport {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; title: string }>;
}

const run = promisify(execFile);
const lighthouseCli = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');

/** One Lighthouse run with its default mobile settings (Moto G-class phone, slow 4G, simulated throttling). */
async function lighthouse(url: string): Promise<LighthouseRun> {
  const dir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-lighthouse-'));
  const output = join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        lighthouseCli,
        url,
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
        '--only-categories=performance,accessibility',
        '--output=json',
        `--output-path=${output}`,
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
    const score = (category: string) => Math.round((report.categories[category]?.score ?? 0) * 100);
    const value = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
    // The weighted audits that cost points, so a low score says why.
    const failing = Object.values(report.categories)
      .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0))
      .filter((ref) => (report.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => ref.id);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      failing: [...new Set(failing)],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

async function main(): Promise<void> {
  const server = await startServer();
  try {
    // `--clip` or `--reveal` measures that alone.
    const only = process.argv.find((arg) => arg === '--clip' || arg === '--reveal');
    if (!only) await measureStartScreen(server.url);
    if (only !== '--reveal') writeSection('clip', await measureStoryClip(server.url));
    if (only !== '--clip') writeSection('reveal', await measureReveal(server.url));
  } finally {
    await server.stop();
  }
}

async function measureStartScreen(url: string): Promise<void> {
  const js = await measureStartScreenJs(url);
  console.log(`start screen JS: ${js.files} files, ${kb(js.gzipBytes)} KB gzip`);
  const runs: LighthouseRun[] = [];
  // Lighthouse times real tasks and scales them, so other work on the machine inflates TBT and LCP.
  const loads: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    loads.push((loadavg()[0] ?? 0).toFixed(1));
    const result = await lighthouse(`${url}${START_PATH}`);
    console.log(`lighthouse run ${i + 1}: ${JSON.stringify(result)}`);
    runs.push(result);
  }
  const mid = (pick: (r: LighthouseRun) => number) => median(runs.map(pick));
  const performance = mid((r) => r.performance);
  const accessibility = mid((r) => r.accessibility);
  const failing = [...new Set(runs.flatMap((r) => r.failing))];

  const body = [
    '## Web app: start screen',
    '',
    `\`${START_PATH}\` served by the built server (\`bench/src/web-bench.ts\`), React 19 and react-dom`,
    '(production build). JavaScript: every script response Chromium fetched to show the start screen',
    '(Pixel 7 viewport) up to its page view, gzip -9 of each body summed, 1 KB = 1,024 bytes',
    '(the server actually sends the build’s brotli files, the "transferred" figure). Lighthouse: default',
    `mobile emulation and simulated slow 4G, median of ${RUNS} runs. ${machine()}.`,
    '',
    table(
      ['measure', 'value', 'target', ''],
      [
        [
          'start-screen JavaScript, gzip',
          `${kb(js.gzipBytes)} KB (${js.files} files, ${kb(js.transferredBytes)} KB transferred)`,
          `≤ ${TARGETS.jsGzipKb} KB`,
          verdict(js.gzipBytes <= TARGETS.jsGzipKb * 1024),
        ],
        [
          'Lighthouse performance',
          performance,
          `≥ ${TARGETS.performance}`,
          verdict(performance >= TARGETS.performance),
        ],
        [
          'Lighthouse accessibility',
          accessibility,
          `${TARGETS.accessibility}`,
          verdict(accessibility >= TARGETS.accessibility),
        ],
        ['Largest Contentful Paint', `${Math.round(mid((r) => r.lcpMs))} ms`, '', ''],
        ['Total Blocking Time', `${Math.round(mid((r) => r.tbtMs))} ms`, '', ''],
        ['Cumulative Layout Shift', mid((r) => r.cls).toFixed(3), '', ''],
      ],
    ),
    '',
    `Per run (performance / accessibility, machine load average when it started): ${runs
      .map((r, i) => `${r.performance} / ${r.accessibility} (load ${loads[i]})`)
      .join(', ')}.`,
    failing.length > 0 ? `Audits below 0.9 in some run: ${failing.map((id) => `\`${id}\``).join(', ')}.` : '',
  ].join('\n');
  writeSection('web', body);
}

await main();
