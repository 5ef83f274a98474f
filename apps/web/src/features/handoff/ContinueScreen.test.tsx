import type { HandoffClaimResponse } from '@selfie-mosaic/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../lib/api-error';
import { jobSession } from '../../lib/job';
import { sessionStore } from '../../lib/session';
import { serveLocaleFiles } from '../../test/locale-files';
import { currentPath, renderApp } from '../../test/render-app';

const api = vi.hoisted(() => ({ claimHandoff: vi.fn(), fetchQueueStatus: vi.fn(), fetchResult: vi.fn() }));

vi.mock('../../lib/handoff-api', () => ({ claimHandoff: api.claimHandoff, reportHandoffProgress: vi.fn() }));
vi.mock('../../lib/job-api', () => ({
  fetchQueueStatus: api.fetchQueueStatus,
  fetchResult: api.fetchResult,
  openQueueStream: () => ({ onopen: null, onmessage: null, onerror: null, close: vi.fn() }),
  artworkUrl: (path: string) => path,
  artworkDownloadUrl: (url: string) => `${url}?download=1`,
}));

/** A fresh code for each test: a page claims each code once, as a code works once. */
let serial = 0;
let TOKEN = '';
const nextToken = () => `K7M2-9XD4-K7M2-9XD4-K7M2-9XD4-${String(++serial).padStart(4, '0')}`;
const DESKTOP_SESSION = 'session-1700000000000-desktop';
const HANDOFF_ID = '33333333-3333-4333-8333-333333333333';
const JOB = '00000000-0000-4000-8000-000000000099';

function claimed(patch: Partial<HandoffClaimResponse> = {}): HandoffClaimResponse {
  return {
    handoff_id: HANDOFF_ID,
    user_session_id: DESKTOP_SESSION,
    country_iso: 'gb',
    language: 'en',
    job_id: null,
    ...patch,
  };
}

const getUserMedia = vi.fn();

/** Opens the code's address and says yes to going on here. */
async function openAndConfirm(address: string) {
  await renderApp(address);
  fireEvent.click(await screen.findByRole('button', { name: 'Continue here' }));
}

beforeEach(() => {
  TOKEN = nextToken();
  api.claimHandoff.mockReset();
  getUserMedia.mockReset();
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  jobSession.reset();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('continue: the phone opens a computer’s code', () => {
  it('goes on with the computer’s visit on the photo step, without the age gate, the code gone from the address', async () => {
    let answer: (value: HandoffClaimResponse) => void = () => undefined;
    api.claimHandoff.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    await renderApp(`/gb/en/continue#${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Continue on this phone?' })).toBeTruthy();
    await waitFor(() => expect(window.location.hash).toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Continue here' }));
    expect(await screen.findByRole('heading', { name: 'Opening your visit…' })).toBeTruthy();
    expect(currentPath()).toBe('/gb/en/continue');
    expect(api.claimHandoff).toHaveBeenCalledExactlyOnceWith(TOKEN.replaceAll('-', ''));

    answer(claimed());
    await waitFor(() => expect(currentPath()).toBe('/gb/en/photo'));
    expect(sessionStore.getState()).toMatchObject({
      userSessionId: DESKTOP_SESSION,
      consentGiven: true,
      questionAnswer: 'yes',
      currentCountry: 'gb',
      currentLanguage: 'en',
      handoffId: HANDOFF_ID,
      handoffRole: 'phone',
    });
    // The phone is not offered a code of its own.
    expect(screen.queryByRole('heading', { name: 'Use your phone' })).toBeNull();
  });

  it('opens the artwork of a code made for it on the result screen', async () => {
    api.claimHandoff.mockResolvedValue(claimed({ job_id: JOB }));
    api.fetchQueueStatus.mockResolvedValue({ status: 'completed', queue_position: 0, error_message: null });
    api.fetchResult.mockResolvedValue({
      job_id: JOB,
      status: 'completed',
      file_path: '/files/a.jpg',
      width: 1080,
      height: 1350,
      story_path: '/files/a.story.jpg',
      story_width: 1080,
      story_height: 1920,
      expires_at: '2030-01-01T00:00:00Z',
    });
    await openAndConfirm(`/gb/en/continue#${TOKEN}`);
    await waitFor(() => expect(currentPath()).toBe('/gb/en/result'));
    expect(await screen.findByRole('heading', { name: 'Download your artwork' })).toBeTruthy();
    expect(sessionStore.getState().currentJobId).toBe(JOB);
    expect(api.fetchQueueStatus).toHaveBeenCalledWith(JOB);
  });

  it('says plainly that a used code no longer works, offers the start, and never asks for the camera', async () => {
    api.claimHandoff.mockRejectedValue(new ApiRequestError('handoffInvalid', 410, 'gone'));
    await openAndConfirm(`/gb/en/continue#${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'This code no longer works' })).toBeTruthy();
    expect(
      screen.getByText('A code works once, for 10 minutes. Start again here, or show a new code on your computer.'),
    ).toBeTruthy();
    await waitFor(() => expect(window.location.hash).toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Start here' }));
    await waitFor(() => expect(currentPath()).toBe('/gb/en/start'));
    expect(sessionStore.getState()).toMatchObject({ consentGiven: false, handoffId: null, handoffRole: null });
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('takes nothing over until the visitor says so: a link someone else sent can be left at once', async () => {
    sessionStore.update({ questionAnswer: 'yes', consentGiven: true, currentJobId: JOB });
    const ownSession = sessionStore.getState().userSessionId;
    await renderApp(`/gb/en/continue#${TOKEN}`);
    await screen.findByRole('heading', { name: 'Continue on this phone?' });
    expect(api.claimHandoff).not.toHaveBeenCalled();
    expect(sessionStore.getState()).toMatchObject({ userSessionId: ownSession, currentJobId: JOB });
    fireEvent.click(screen.getByRole('button', { name: 'Start here' }));
    await waitFor(() => expect(currentPath()).toBe('/gb/en/start'));
    expect(api.claimHandoff).not.toHaveBeenCalled();
  });

  it('refuses an address without a code, or with something that cannot be one, without asking the server', async () => {
    await renderApp('/gb/en/continue#not-a-code');
    expect(await screen.findByRole('heading', { name: 'This code no longer works' })).toBeTruthy();
    cleanup();
    await renderApp('/gb/en/continue');
    expect(await screen.findByRole('heading', { name: 'This code no longer works' })).toBeTruthy();
    expect(api.claimHandoff).not.toHaveBeenCalled();
  });

  it('explains a claim that got no answer and sends it again', async () => {
    api.claimHandoff.mockRejectedValueOnce(new ApiRequestError('network', 0, 'offline'));
    api.claimHandoff.mockResolvedValueOnce(claimed());
    await openAndConfirm(`/gb/en/continue#${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toMatch(/connection/i);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(currentPath()).toBe('/gb/en/photo'));
    expect(api.claimHandoff).toHaveBeenCalledTimes(2);
  });
});
