import {
  ADMIN_PATHS,
  type AdminFunnel,
  type AdminLive,
  adminFunnelSchema,
  adminLiveSchema,
  FUNNEL_STEPS,
  type FunnelStep,
  REFUSALS,
} from '@selfie-mosaic/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../../test/answer-fetch';
import { renderApp } from '../../test/render-app';

// Chart.js needs a real canvas; here the test checks what the charts are drawn from.
const charts = vi.hoisted(() => ({
  drawFunnel: vi.fn((..._args: unknown[]) => ({ destroy: () => undefined })),
  drawDays: vi.fn((..._args: unknown[]) => ({ destroy: () => undefined })),
}));
vi.mock('./charts', () => charts);

const copies = import.meta.glob<unknown>('../../locales/*.json', { eager: true, import: 'default' });
const TOKEN = `token-${Math.random().toString(36).slice(2)}`;

const counts = (values: Partial<Record<FunnelStep, number>>) =>
  ({ ...Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])), ...values }) as Record<FunnelStep, number>;

const live: AdminLive = adminLiveSchema.parse({
  at: '2026-11-24T21:05:09.000Z',
  queue_depth: 7,
  processing: 2,
  jobs_per_minute: 3.25,
  render_ms: { p50: 850, p95: 2430 },
  completed: 49,
  // Every refusal code has a count (the contract's record is exhaustive), most of them 0.
  refusals: { ...Object.fromEntries(Object.keys(REFUSALS).map((code) => [code, 0])), no_face: 3, too_dark: 1 },
  window_minutes: 15,
});

function funnelFor(from: string, to: string): AdminFunnel {
  const de = counts({ start_views: 200, answered_yes: 150, answered_no: 50, consented: 120, photo_views: 110 });
  const ae = counts({ start_views: 40, answered_yes: 30, answered_no: 10, consented: 20 });
  return adminFunnelSchema.parse({
    from,
    to,
    rows: [
      { country_iso: 'ae', language: 'ae-ar', ...ae },
      { country_iso: 'de', language: 'de', ...de },
    ],
    totals: Object.fromEntries(FUNNEL_STEPS.map((step) => [step, de[step] + ae[step]])),
    days: [{ date: from, ...de }],
  });
}

/** What the admin API would answer, from the contract's paths and schemas; each test sets its state. */
const server = { on: true, signedIn: false, wrongTries: 0, liveStatus: 200, calls: [] as string[] };

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const refuse = (code: 'unauthorized' | 'rateLimited' | 'notFound', status: number) =>
  json({ error: code, code }, status);

beforeEach(() => {
  Object.assign(server, { on: true, signedIn: false, wrongTries: 0, liveStatus: 200, calls: [] });
  answerFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const copy = /\/locales\/.*?([\w-]+)\.json$/.exec(url.pathname) ?? /\/([\w-]+)\.json$/.exec(url.pathname);
    if (copy && !url.pathname.startsWith('/api/')) return json(copies[`../../locales/${copy[1]}.json`] ?? {});
    server.calls.push(`${method} ${url.pathname}${url.search}`);
    if (!server.on) return refuse('notFound', 404);
    if (url.pathname === ADMIN_PATHS.session) {
      if (method === 'GET') return server.signedIn ? new Response(null, { status: 204 }) : refuse('unauthorized', 401);
      if (method === 'DELETE') {
        server.signedIn = false;
        return new Response(null, { status: 204 });
      }
      const { token } = JSON.parse(String(init?.body)) as { token: string };
      if (server.wrongTries >= 2) return refuse('rateLimited', 429);
      if (token !== TOKEN) {
        server.wrongTries += 1;
        return refuse('unauthorized', 401);
      }
      server.signedIn = true;
      return new Response(null, { status: 204 });
    }
    if (!server.signedIn) return refuse('unauthorized', 401);
    if (url.pathname === ADMIN_PATHS.live) return server.liveStatus === 200 ? json(live) : refuse('unauthorized', 401);
    if (url.pathname === ADMIN_PATHS.funnel) {
      return json(funnelFor(url.searchParams.get('from') ?? '', url.searchParams.get('to') ?? ''));
    }
    return refuse('notFound', 404);
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

async function signIn(token: string) {
  fireEvent.change(await screen.findByLabelText('Operator token'), { target: { value: token } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the operators’ dashboard at /admin', () => {
  it('is the 404 page when the server has no admin secret', async () => {
    server.on = false;
    await renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeTruthy();
    expect(screen.queryByLabelText('Operator token')).toBeNull();
  });

  it('asks for the token in English, explains a wrong one and a rate limit with the catalogue’s words', async () => {
    await renderApp('/admin');
    const field = await screen.findByLabelText('Operator token');
    expect(field.getAttribute('type')).toBe('password');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['en', 'ltr']);
    await waitFor(() => expect(document.title).toMatch(/^Sign in \| Operators \| /));

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the operator token.');

    await signIn('wrong');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please sign in with the operator token.'));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await signIn('wrong again');
    await signIn(TOKEN);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Too many requests. Please wait a moment and try again.'),
    );
    expect(screen.queryByRole('heading', { name: 'Campaign dashboard' })).toBeNull();
  });

  it('signs in to live figures with readable refusals, and signs out again', async () => {
    await renderApp('/admin');
    await signIn(TOKEN);
    const title = await screen.findByRole('heading', { level: 1, name: 'Campaign dashboard' });
    expect(document.activeElement).toBe(title);
    await waitFor(() => expect(screen.getByTestId('live-queue').textContent).toBe('7'));
    expect(screen.getByTestId('live-processing').textContent).toBe('2');
    expect(screen.getByTestId('live-rate').textContent).toBe('3.3');
    expect(screen.getByTestId('live-p50').textContent).toBe('850 ms');
    expect(screen.getByTestId('live-p95').textContent).toBe('2.4 s');
    expect(screen.getByTestId('live-updated').textContent).toMatch(/Updated 21:05:09 UTC/);
    const refusals = within(screen.getByTestId('live-refusals'));
    expect(refusals.getByText('No face found').nextElementSibling?.textContent).toBe('3');
    expect(refusals.getByText('Too dark').nextElementSibling?.textContent).toBe('1');
    expect(refusals.getByText('More than one face').nextElementSibling?.textContent).toBe('0');

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByLabelText('Operator token');
    expect(server.calls).toContain(`DELETE ${ADMIN_PATHS.session}`);
  });

  it('goes straight to the dashboard when already signed in, and back to the form when the session ends', async () => {
    server.signedIn = true;
    await renderApp('/admin');
    await screen.findByRole('heading', { level: 1, name: 'Campaign dashboard' });
    await waitFor(() => expect(document.title).toMatch(/^Dashboard \| Operators \| /));
    server.signedIn = false;
    server.liveStatus = 401;
    // The next refresh (every few seconds) finds the cookie gone.
    await screen.findByLabelText('Operator token', undefined, { timeout: 8000 });
    expect(screen.getByRole('alert').textContent).toBe('Please sign in with the operator token.');
  });

  it('shows the last 7 days per market and locale with rates, totals, charts and downloads', async () => {
    server.signedIn = true;
    await renderApp('/admin');
    const table = await screen.findByTestId('funnel-table');
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await waitFor(() => expect(within(table).getByText('Germany (DE)')).toBeTruthy());
    expect(server.calls).toContain(`GET ${ADMIN_PATHS.funnel}?from=${weekAgo}&to=${today}`);
    expect(within(table).getByText('Arabic (United Arab Emirates), ae-ar')).toBeTruthy();

    const germany = screen.getByTestId('funnel-row-de-de');
    const cell = (row: HTMLElement, step: FunnelStep) => row.querySelector(`[data-step="${step}"]`)?.textContent;
    expect(cell(germany, 'start_views')).toBe('200');
    expect(cell(germany, 'answered_yes')).toBe('15075%');
    expect(cell(germany, 'consented')).toBe('12080%');
    expect(cell(germany, 'uploads')).toBe('00%');
    expect(cell(germany, 'artworks')).toBe('0');
    expect(cell(screen.getByTestId('funnel-totals'), 'start_views')).toBe('240');

    await waitFor(() => expect(charts.drawFunnel).toHaveBeenCalled());
    const [canvas, steps, totals] = charts.drawFunnel.mock.calls.at(-1) ?? [];
    expect([canvas, steps, (totals as AdminFunnel['totals']).consented]).toEqual([
      screen.getByTestId('chart-funnel'),
      FUNNEL_STEPS,
      140,
    ]);
    expect(charts.drawDays).toHaveBeenLastCalledWith(screen.getByTestId('chart-days'), [
      expect.objectContaining({ date: weekAgo, start_views: 200 }),
    ]);
    expect(screen.getByTestId('chart-funnel').getAttribute('aria-label')).toMatch(
      /Start-screen views 240, Answered yes 180/,
    );
    expect(screen.getByTestId('chart-days').getAttribute('aria-label')).toMatch(/^Line chart per day/);
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${ADMIN_PATHS.funnelCsv}?from=${weekAgo}&to=${today}`,
    );
    expect(screen.getByRole('link', { name: 'NDJSON' }).getAttribute('href')).toBe(
      `${ADMIN_PATHS.consentExport}?from=${weekAgo}&to=${today}&format=ndjson`,
    );
  });

  it('checks the range before asking, names the field, and then shows the chosen days', async () => {
    server.signedIn = true;
    await renderApp('/admin');
    await screen.findByTestId('funnel-table');
    const from = screen.getByLabelText('From (UTC)');
    fireEvent.change(from, { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2026-11-10' } });
    const asked = server.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect((await screen.findByText('The first day must not be after the last day.')).getAttribute('role')).toBe(
      'alert',
    );
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(server.calls.slice(asked).some((call) => call.includes(ADMIN_PATHS.funnel))).toBe(false);

    fireEvent.change(from, { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(server.calls).toContain(`GET ${ADMIN_PATHS.funnel}?from=2026-11-01&to=2026-11-10`));
    expect(from.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByTestId('funnel-range').textContent).toBe('2026-11-01 to 2026-11-10 (10 days, UTC)');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${ADMIN_PATHS.funnelCsv}?from=2026-11-01&to=2026-11-10`,
    );
  });
});
