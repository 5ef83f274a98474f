import { type HandoffStatus, screenPath } from '@selfie-mosaic/contract';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveLocaleFiles } from '../../test/locale-files';
import { ApiRequestError } from '../api-error';
import { findMarket } from '../campaign';
import { loadLocale } from '../i18n';
import { LocaleContext } from '../locale-context';
import { sessionStore } from '../session';
import type { StreamLike } from '../stream-follower';
import PhoneHandoff from './PhoneHandoff';

const api = vi.hoisted(() => ({
  streams: [] as StreamLike[],
  createHandoff: vi.fn(),
  fetchHandoffStatus: vi.fn(),
}));

vi.mock('../handoff-api', () => ({
  createHandoff: api.createHandoff,
  fetchHandoffStatus: api.fetchHandoffStatus,
  openHandoffStream: () => {
    const stream: StreamLike = { onopen: null, onmessage: null, onerror: null, close: vi.fn() };
    api.streams.push(stream);
    return stream;
  },
}));

const FIRST = { id: '11111111-1111-4111-8111-111111111111', token: 'K7M29XD4K7M29XD4K7M29XD4K7M2' };
const SECOND = { id: '22222222-2222-4222-8222-222222222222', token: 'ABCDEFGHJKMNPQRSTVWXYZ012345' };
const JOB = '00000000-0000-4000-8000-000000000042';
const inTenMinutes = () => new Date(Date.now() + 600_000).toISOString();

function created(offer: typeof FIRST, expiresAt = inTenMinutes()) {
  return { handoff_id: offer.id, token: offer.token, expires_at: expiresAt };
}

function send(state: HandoffStatus['state'], jobId: string | null = null) {
  const data = JSON.stringify({ state, job_id: jobId, expires_at: inTenMinutes() });
  act(() => api.streams.at(-1)?.onmessage?.(new MessageEvent('message', { data })));
}

const handlers = { onConnected: vi.fn(), onSubmitted: vi.fn() };

/** The panel as the photo screen mounts it, in a market and language. */
async function showPanel(country = 'gb', language: 'en' | 'ae-ar' = 'en') {
  const { locale, t, i18n } = await loadLocale(language);
  const market = findMarket(country);
  if (!market) throw new Error(`no market ${country}`);
  const active = {
    locale,
    t,
    i18n,
    country,
    market,
    countryName: country,
    minimumAge: market.minimumAge ?? null,
    path: (name: Parameters<typeof screenPath>[2] & string) => screenPath(country, language, name),
  };
  return render(
    <LocaleContext.Provider value={active}>
      <Suspense fallback={null}>
        <PhoneHandoff onConnected={handlers.onConnected} onSubmitted={handlers.onSubmitted} />
      </Suspense>
    </LocaleContext.Provider>,
  );
}

const qr = () => screen.queryByRole('img', { name: 'Code that opens this visit on your phone' });

beforeEach(() => {
  api.streams.length = 0;
  api.createHandoff.mockReset().mockResolvedValueOnce(created(FIRST)).mockResolvedValueOnce(created(SECOND));
  api.fetchHandoffStatus.mockReset();
  handlers.onConnected.mockReset();
  handlers.onSubmitted.mockReset();
  sessionStore.update({ questionAnswer: 'yes', consentGiven: true });
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  vi.restoreAllMocks();
});

describe('use your phone: the panel beside the photo step on a computer', () => {
  it('shows a code and the link to type, then what the phone does, and hands over its job', async () => {
    await showPanel();
    expect(screen.getByRole('heading', { name: 'Use your phone' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Code that opens this visit on your phone' })).toBeTruthy();
    expect(api.createHandoff).toHaveBeenCalledWith(sessionStore.getState().userSessionId, undefined);
    const link = screen.getByTestId('handoff-link');
    expect(link.textContent).toBe(`${window.location.host}/gb/en/continue#K7M2-9XD4-K7M2-9XD4-K7M2-9XD4-K7M2`);
    expect(link.getAttribute('dir')).toBe('ltr');
    expect(screen.getByText("Or type this address in your phone's browser:")).toBeTruthy();
    expect(screen.getByText('The code works once, for 10 minutes.')).toBeTruthy();
    expect(sessionStore.getState()).toMatchObject({ handoffId: FIRST.id, handoffRole: 'desktop' });

    send('connected');
    const connected = screen.getByRole('heading', { name: 'Your phone is connected' });
    // Said politely to screen readers, and the used code leaves the screen.
    expect(connected.closest('[aria-live="polite"]')).not.toBeNull();
    expect(screen.getByText('Take your selfie on your phone. Your artwork will appear on both screens.')).toBeTruthy();
    expect(qr()).toBeNull();
    expect(handlers.onConnected).toHaveBeenCalledTimes(1);

    send('uploading');
    expect(screen.getByRole('heading', { name: 'Your photo is on its way' })).toBeTruthy();
    send('connected');
    // Back at the phone's camera after a failed send: the computer's camera is not switched off twice.
    expect(handlers.onConnected).toHaveBeenCalledTimes(1);

    send('submitted', JOB);
    expect(handlers.onSubmitted).toHaveBeenCalledExactlyOnceWith(JOB);
    expect(api.streams.at(-1)?.close).toHaveBeenCalled();
    cleanup();
    // The artwork comes from the phone: the result screen must know, after a reload too.
    expect(sessionStore.getState()).toMatchObject({ handoffId: FIRST.id, handoffRole: 'desktop' });
  });

  it('offers a new code for one that ran out unused, and forgets it when the visitor uses this computer', async () => {
    await showPanel();
    await screen.findByRole('img', { name: 'Code that opens this visit on your phone' });
    send('expired');
    expect(screen.getByText('This code has run out.')).toBeTruthy();
    expect(qr()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show a new code' }));
    await waitFor(() => expect(screen.getByTestId('handoff-link').textContent).toContain('ABCD-EFGH'));
    expect(qr()).toBeTruthy();
    expect(sessionStore.getState().handoffId).toBe(SECOND.id);
    cleanup();
    expect(sessionStore.getState()).toMatchObject({ handoffId: null, handoffRole: null });
  });

  it('says a code has run out when its time is up, even if the server says nothing', async () => {
    api.createHandoff.mockReset().mockResolvedValueOnce(created(FIRST, new Date(Date.now() + 300).toISOString()));
    await showPanel();
    await screen.findByRole('img', { name: 'Code that opens this visit on your phone' });
    expect(await screen.findByText('This code has run out.', {}, { timeout: 2000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show a new code' })).toBeTruthy();
  });

  it('tells how long the code lasts as the server set it', async () => {
    api.createHandoff.mockReset().mockResolvedValueOnce(created(FIRST, new Date(Date.now() + 300_000).toISOString()));
    await showPanel();
    expect(await screen.findByText('The code works once, for 5 minutes.')).toBeTruthy();
  });

  it('explains a code that could not be made, in the visitor’s words, and tries again', async () => {
    api.createHandoff.mockReset().mockRejectedValueOnce(new ApiRequestError('network', 0, 'offline'));
    api.createHandoff.mockResolvedValueOnce(created(FIRST));
    await showPanel();
    expect((await screen.findByRole('alert')).textContent).toMatch(/connection/i);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: 'Code that opens this visit on your phone' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a reload follows the hand-off a phone is on instead of offering a new code', async () => {
    sessionStore.update({ handoffId: FIRST.id, handoffRole: 'desktop' });
    api.fetchHandoffStatus.mockResolvedValue({ state: 'uploading', job_id: null, expires_at: inTenMinutes() });
    await showPanel();
    expect(await screen.findByRole('heading', { name: 'Your photo is on its way' })).toBeTruthy();
    expect(api.createHandoff).not.toHaveBeenCalled();
    expect(handlers.onConnected).toHaveBeenCalledTimes(1);
    send('submitted', JOB);
    expect(handlers.onSubmitted).toHaveBeenCalledWith(JOB);
  });

  it('reads right to left in Arabic, with the address left to right', async () => {
    await showPanel('ae', 'ae-ar');
    await screen.findByRole('img');
    const link = screen.getByTestId('handoff-link');
    expect(link.getAttribute('dir')).toBe('ltr');
    expect(link.textContent).toContain('/ae/ae-ar/continue#');
  });
});
