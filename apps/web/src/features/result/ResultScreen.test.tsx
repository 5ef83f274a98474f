import { ARTWORK, type QueueStatus, STORY_ARTWORK } from '@selfie-mosaic/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobSession } from '../../lib/job';
import type { StreamLike } from '../../lib/job-monitor';
import { sendEvent } from '../../lib/pageview';
import { sessionStore } from '../../lib/session';
import { serveLocaleFiles } from '../../test/locale-files';
import { currentPath, renderApp } from '../../test/render-app';

const api = vi.hoisted(() => ({
  streams: [] as StreamLike[],
  fetchQueueStatus: vi.fn(),
  fetchResult: vi.fn(),
}));

vi.mock('../../lib/job-api', () => ({
  fetchQueueStatus: api.fetchQueueStatus,
  fetchResult: api.fetchResult,
  openQueueStream: () => {
    const stream: StreamLike = { onopen: null, onmessage: null, onerror: null, close: vi.fn() };
    api.streams.push(stream);
    return stream;
  },
  artworkUrl: (path: string) => path,
  artworkDownloadUrl: (url: string) => `${url}?download=1`,
}));

const handoffApi = vi.hoisted(() => ({
  streams: [] as StreamLike[],
  createHandoff: vi.fn(),
  fetchHandoffStatus: vi.fn(),
}));

vi.mock('../../lib/handoff-api', () => ({
  createHandoff: handoffApi.createHandoff,
  fetchHandoffStatus: handoffApi.fetchHandoffStatus,
  openHandoffStream: () => {
    const stream: StreamLike = { onopen: null, onmessage: null, onerror: null, close: vi.fn() };
    handoffApi.streams.push(stream);
    return stream;
  },
  claimHandoff: vi.fn(),
  reportHandoffProgress: vi.fn(),
}));

const JOB = '00000000-0000-4000-8000-000000000001';
const HANDOFF_ID = '6f0c1a2b-3d4e-4f50-8a6b-7c8d9e0f1a2b';
const TOKEN = 'K7M29XD4K7M29XD4K7M29XD4K7M2';

async function openResult() {
  await renderApp('/gb/en/result');
}

function send(status: Partial<QueueStatus>) {
  const stream = api.streams.at(-1);
  act(() => stream?.onmessage?.(new MessageEvent('message', { data: JSON.stringify(status) })));
}

/** The engine finds no face in the photo being processed. */
async function refusal() {
  api.fetchQueueStatus.mockResolvedValue({ status: 'processing', queue_position: 0, error_message: null });
  await openResult();
  await screen.findByRole('heading', { name: 'Creating your image' });
  await waitFor(() => expect(api.streams).toHaveLength(1));
  send({ status: 'failed', queue_position: 0, error_message: 'No face detected.', error_code: 'no_face' });
  await screen.findByRole('heading', { name: 'We could not create your image' });
}

beforeEach(() => {
  api.streams.length = 0;
  handoffApi.streams.length = 0;
  handoffApi.createHandoff.mockReset().mockResolvedValue({
    handoff_id: HANDOFF_ID,
    token: TOKEN,
    expires_at: new Date(Date.now() + 600_000).toISOString(),
  });
  api.fetchResult.mockResolvedValue({
    job_id: JOB,
    status: 'completed',
    file_path: '/files/t.jpg',
    width: ARTWORK.width,
    height: ARTWORK.height,
    story_path: '/files/t.story.jpg',
    story_width: STORY_ARTWORK.width,
    story_height: STORY_ARTWORK.height,
    expires_at: '2026-01-01T00:00:00Z',
  });
  // A visitor back after a reload: the saved copy holds the job, the page knows nothing else.
  sessionStore.update({ questionAnswer: 'yes', consentGiven: true, currentJobId: JOB, isProcessing: true });
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  jobSession.reset();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('result screen', () => {
  it('resumes a stored job, shows the queue and progress, then the artwork with download and restart', async () => {
    api.fetchQueueStatus.mockResolvedValue({ status: 'queued', queue_position: 3, error_message: null });
    await openResult();
    expect(await screen.findByRole('heading', { name: 'Creating your image' })).toBeTruthy();
    expect(screen.getByText('This can take up to 20 seconds.')).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe('You are in queue position 3');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');

    send({ status: 'queued', queue_position: 1, error_message: null });
    expect(screen.getByRole('status').textContent).toBe('Your image is being processed now...');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('80');

    send({ status: 'completed', queue_position: 0, error_message: null });
    expect(await screen.findByRole('heading', { name: 'Download your artwork' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Your selfie as a mosaic artwork' }).getAttribute('src')).toBe(
      '/files/t.jpg',
    );
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/files/t.jpg?download=1');
    expect(screen.getByRole('button', { name: 'Start again' })).toBeTruthy();
    expect(sessionStore.getState().processedImage).toBe('/files/t.jpg');

    vi.mocked(sendEvent).mockClear();
    fireEvent.click(screen.getByRole('link', { name: 'Download' }));
    expect(sendEvent).toHaveBeenCalledExactlyOnceWith('download', 'gb', 'en');
  });

  it('tells the waiting visitor how long it will take, and speaks again only when the wording changes', async () => {
    api.fetchQueueStatus.mockResolvedValue({
      status: 'queued',
      queue_position: 9,
      error_message: null,
      eta_seconds: 83,
    });
    await openResult();
    const status = await screen.findByRole('status');
    await waitFor(() => expect(api.streams).toHaveLength(1));
    send({ status: 'queued', queue_position: 8, error_message: null, eta_seconds: 41 });
    expect(status.textContent).toBe('You are in queue position 8 Your image will be ready in about 40 seconds.');
    expect(status.getAttribute('aria-live')).toBe('polite');
    // A job ahead finished but the rounded estimate stayed: the live region's text is not touched.
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(screen.getByTestId('queue-eta'), { childList: true, characterData: true, subtree: true });
    send({ status: 'queued', queue_position: 8, error_message: null, eta_seconds: 38 });
    await Promise.resolve();
    expect(changes).toHaveLength(0);
    observer.disconnect();
    send({ status: 'queued', queue_position: 2, error_message: null, eta_seconds: 7 });
    expect(screen.getByTestId('queue-eta').textContent).toBe('Your image will be ready in a few seconds.');
    send({ status: 'processing', queue_position: 0, error_message: null, eta_seconds: 2 });
    expect(status.textContent).toBe('Processing your image... Your image will be ready in a few seconds.');
  });

  it('shows a refusal in the visitor’s words with a way to take a new photo', async () => {
    await refusal();
    expect(screen.getByRole('alert').textContent).toBe(
      'No face detected. Please ensure your face is clearly visible and well-lit.',
    );
    expect(screen.getByRole('button', { name: 'Take a new photo' })).toBeTruthy();
  });

  it('takes a new photo after a refusal straight from the live camera, not the permission step', async () => {
    const stream = new MediaStream();
    stream.getTracks = () => [{ stop: vi.fn() } as unknown as MediaStreamTrack];
    const getUserMedia = vi.fn(async () => stream);
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    await refusal();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Take a new photo' }));
    });
    expect(await screen.findByRole('heading', { name: 'Position your face inside the circle' })).toBeTruthy();
    expect(currentPath()).toBe('/gb/en/photo');
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Take photo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn on camera' })).toBeNull();
    expect(sessionStore.getState()).toMatchObject({ currentJobId: null, error: null, consentGiven: true });
    // Only this once: a reload of the page asks before the camera turns on again.
    expect(window.history.state).toBeNull();
  });

  it('counts a share once the share sheet reports it done, and not a dismissed one', async () => {
    const share = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { configurable: true, value: share });
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => true });
    try {
      api.fetchQueueStatus.mockResolvedValue({ status: 'processing', queue_position: 0, error_message: null });
      await openResult();
      await waitFor(() => expect(api.streams).toHaveLength(1));
      send({ status: 'completed', queue_position: 0, error_message: null });
      await screen.findByRole('heading', { name: 'Download your artwork' });
      vi.mocked(sendEvent).mockClear();
      share.mockRejectedValueOnce(Object.assign(new Error('dismissed'), { name: 'AbortError' }));
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
      await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
      expect(sendEvent).not.toHaveBeenCalled();
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
      await waitFor(() => expect(sendEvent).toHaveBeenCalledExactlyOnceWith('share', 'gb', 'en'));
    } finally {
      Reflect.deleteProperty(navigator, 'share');
      Reflect.deleteProperty(navigator, 'canShare');
    }
  });

  it('offers the story version: the switch changes the preview, the download and the shared file', async () => {
    const share = vi.fn(async (_data: ShareData) => undefined);
    Object.defineProperty(navigator, 'share', { configurable: true, value: share });
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => true });
    // Both pictures are fetched before any tap, each as its own file.
    const fetched: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      fetched.push(String(input));
      return new Response(new Blob([String(input)], { type: 'image/jpeg' }));
    });
    try {
      api.fetchQueueStatus.mockResolvedValue({ status: 'processing', queue_position: 0, error_message: null });
      await openResult();
      await waitFor(() => expect(api.streams).toHaveLength(1));
      send({ status: 'completed', queue_position: 0, error_message: null });
      await screen.findByRole('heading', { name: 'Download your artwork' });
      expect(screen.getByRole('group', { name: 'Format' })).toBeTruthy();
      expect((screen.getByRole('radio', { name: 'Post 4:5' }) as HTMLInputElement).checked).toBe(true);
      await waitFor(() => expect(fetched.sort()).toEqual(['/files/t.jpg', '/files/t.story.jpg']));

      fireEvent.click(screen.getByRole('radio', { name: 'Story 9:16' }));
      const story = screen.getByRole('img', { name: 'Your selfie as a mosaic artwork, in story format' });
      expect(story.getAttribute('src')).toBe('/files/t.story.jpg');
      expect(story.getAttribute('width')).toBe('1080');
      expect(story.getAttribute('height')).toBe('1920');
      expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/files/t.story.jpg?download=1');
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
      await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
      const shared = share.mock.calls[0]?.[0].files?.[0];
      expect(shared?.name).toBe('iqos-mosaic-story.jpg');
      expect(await shared?.text()).toBe('/files/t.story.jpg');

      fireEvent.click(screen.getByRole('radio', { name: 'Post 4:5' }));
      expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/files/t.jpg?download=1');
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
      await waitFor(() => expect(share).toHaveBeenCalledTimes(2));
      expect(share.mock.calls[1]?.[0].files?.[0]?.name).toBe('iqos-mosaic.jpg');
    } finally {
      Reflect.deleteProperty(navigator, 'share');
      Reflect.deleteProperty(navigator, 'canShare');
    }
  });

  it('starts over when the stored job is gone (404)', async () => {
    api.fetchQueueStatus.mockRejectedValue(Object.assign(new Error('Not found'), { status: 404 }));
    await openResult();
    await waitFor(() => expect(currentPath()).toBe('/gb/en/start'));
    expect(sessionStore.getState()).toMatchObject({ currentJobId: null, consentGiven: false });
  });
});

describe('result screen on a computer: the artwork on the phone', () => {
  /** The job completed while the page was away: the stored job is checked and its artwork shown. */
  async function openCompleted() {
    api.fetchQueueStatus.mockResolvedValue({ status: 'completed', queue_position: 0, error_message: null });
    await openResult();
    await screen.findByRole('heading', { name: 'Download your artwork' });
  }

  it('offers a code that opens the artwork on the phone, and says when the phone has it', async () => {
    await openCompleted();
    expect(await screen.findByRole('heading', { name: 'Get it on your phone' })).toBeTruthy();
    expect(screen.getByText('Scan the code to open your artwork on your phone, ready to save and share.')).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Code that opens this visit on your phone' })).toBeTruthy();
    expect(handoffApi.createHandoff).toHaveBeenCalledWith(sessionStore.getState().userSessionId, JOB);
    expect(screen.getByTestId('handoff-link').textContent).toBe(
      `${window.location.host}/gb/en/continue#K7M2-9XD4-K7M2-9XD4-K7M2-9XD4-K7M2`,
    );

    const stream = handoffApi.streams.at(-1);
    act(() =>
      stream?.onmessage?.(
        new MessageEvent('message', {
          data: JSON.stringify({ state: 'connected', job_id: JOB, expires_at: '2030-01-01T00:00:00Z' }),
        }),
      ),
    );
    expect(screen.getByText('Your artwork is open on your phone.')).toBeTruthy();
    // The code was used: it is not left on the screen for another phone.
    expect(screen.queryByRole('img', { name: 'Code that opens this visit on your phone' })).toBeNull();
    expect(stream?.close).toHaveBeenCalled();
  });

  it('offers nothing when the artwork was made on the phone, or on the phone itself', async () => {
    sessionStore.update({ handoffId: HANDOFF_ID, handoffRole: 'desktop' });
    await openCompleted();
    cleanup();
    sessionStore.update({ handoffId: null, handoffRole: 'phone' });
    await openCompleted();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByRole('heading', { name: 'Get it on your phone' })).toBeNull();
    expect(handoffApi.createHandoff).not.toHaveBeenCalled();
  });
});
