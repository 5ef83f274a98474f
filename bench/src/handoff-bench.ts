import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { type HandoffClaimResponse, type HandoffCreateResponse, screenPath, XSRF } from '@selfie-mosaic/contract';
import { launchChromium } from '../../e2e/support/browser.js';
import { facePhoto } from '../../e2e/support/fixtures.js';
import { reachCamera } from '../../e2e/support/flow.js';
import { startServer } from '../../e2e/support/server-process.js';
import { machine, median, percentile, table, writeSection } from './report.js';

/**
 * Desktop to phone (issue 26): how long after the phone starts sending its photo the desktop shows the
 * artwork. The desktop is the built app in headless Chromium in a laptop's window (`openDesktop`'s size) without a camera, at the photo
 * step with its code shown; the phone is played through the API as a phone's browser calls it (claim the
 * code, say the photo is on its way, upload it with the hand-off id), so the time is the server's and the
 * desktop's, not a second browser's. Measured from the upload's first byte to the desktop's artwork
 * element (the reveal begins) and to the reveal's end. 20 runs, one at a time.
 */

const RUNS = Number(process.env.HANDOFF_RUNS ?? 20);

interface Run {
  toArtworkMs: number;
  toRevealEndMs: number;
}

/** A phone's fetch: the double-submit cookie and header every POST carries. */
async function phoneClient(baseURL: string) {
  const first = await fetch(`${baseURL}/healthz`);
  const cookie = (first.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`)) ?? '').split(';')[0] ?? '';
  const headers = { cookie, [XSRF.header]: decodeURIComponent(cookie.slice(XSRF.cookie.length + 1)) };
  return async (path: string, body: unknown): Promise<Response> => {
    const json = !(body instanceof FormData);
    const response = await fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: json ? { ...headers, 'content-type': 'application/json' } : headers,
      body: json ? JSON.stringify(body) : body,
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };
}

async function once(baseURL: string, photo: Buffer): Promise<Run> {
  const browser = await launchChromium('none', '');
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
    const page = await context.newPage();
    const created = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/handoff' && response.request().method() === 'POST',
    );
    await reachCamera(page, 'gb', 'en');
    const { token, handoff_id } = (await (await created).json()) as HandoffCreateResponse;
    // The desktop is following the hand-off before the phone appears.
    await page.getByTestId('handoff-qr').waitFor();

    const post = await phoneClient(baseURL);
    const claim = (await (await post('/api/handoff/claim', { token })).json()) as HandoffClaimResponse;
    await post(`/api/handoff/${handoff_id}/state`, { user_session_id: claim.user_session_id, state: 'uploading' });
    const form = new FormData();
    form.set('user_session_id', claim.user_session_id);
    form.set('handoff_id', handoff_id);
    form.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'selfie.jpg');
    const sent = performance.now();
    await post('/api/upload', form);
    await page.getByTestId('artwork').waitFor({ timeout: 120_000 });
    const toArtworkMs = performance.now() - sent;
    await page.getByTestId('reveal').waitFor({ state: 'detached', timeout: 60_000 });
    const toRevealEndMs = performance.now() - sent;
    if (!page.url().endsWith(screenPath('gb', 'en', 'result'))) throw new Error(`desktop ended at ${page.url()}`);
    return { toArtworkMs, toRevealEndMs };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const server = await startServer({
    RATE_LIMIT_UPLOAD: '1000',
    RATE_LIMIT_CONSENT: '1000',
    RATE_LIMIT_HANDOFF: '1000',
  });
  const photo = await readFile(await facePhoto());
  const runs: Run[] = [];
  const loads: number[] = [];
  try {
    // One run first, not counted: the server's render workers and the browser's caches warm up.
    await once(server.url, photo);
    for (let i = 0; i < RUNS; i++) {
      loads.push(loadavg()[0] ?? 0);
      runs.push(await once(server.url, photo));
      process.stdout.write('.');
    }
  } finally {
    await server.stop();
  }
  process.stdout.write('\n');
  const ms = (values: number[], p: number) => `${Math.round(percentile(values, p))} ms`;
  const artwork = runs.map((run) => run.toArtworkMs);
  const revealEnd = runs.map((run) => run.toRevealEndMs);
  const body = [
    '## Desktop to phone (`npm run bench:handoff -w bench`)',
    '',
    `${machine()}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the runs.`,
    '',
    `From the phone's upload to the desktop showing the artwork, ${RUNS} runs one at a time (the phone played`,
    'through the API as its browser calls it; the desktop is the built app in Chromium at 1280 × 800):',
    '',
    table(
      ['desktop shows', 'p50', 'p90', 'fastest', 'slowest'],
      [
        ['the artwork (its reveal begins)', ms(artwork, 50), ms(artwork, 90), ms(artwork, 0), ms(artwork, 100)],
        [
          'the whole artwork (reveal ended)',
          ms(revealEnd, 50),
          ms(revealEnd, 90),
          ms(revealEnd, 0),
          ms(revealEnd, 100),
        ],
      ],
    ),
  ].join('\n');
  console.log(body);
  console.log(`median to artwork ${Math.round(median(artwork))} ms`);
  writeSection('handoff', body);
}

await main();
