import type { QueueStatus } from '@selfie-mosaic/contract';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobSession } from '../../lib/job';
import type { StreamLike } from '../../lib/job-monitor';
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

const JOB = '00000000-0000-4000-8000-000000000001';

async function openResult() {
  await renderApp('/gb/en/result');
}

function send(status: Partial<QueueStatus>) {
  const stream = api.streams.at(-1);
  act(() => stream?.onmessage?.(new MessageEvent('message', { data: JSON.stringify(status) })));
}

beforeEach(() => {
  api.streams.length = 0;
  api.fetchResult.mockResolvedValue({
    job_id: JOB,
    status: 'completed',
    file_path: '/files/t.jpg',
    width: 1080,
    height: 1350,
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
  });

  it('shows a refusal in the visitor’s words with a way to take a new photo', async () => {
    api.fetchQueueStatus.mockResolvedValue({ status: 'processing', queue_position: 0, error_message: null });
    await openResult();
    await screen.findByRole('heading', { name: 'Creating your image' });
    await waitFor(() => expect(api.streams).toHaveLength(1));
    send({ status: 'failed', queue_position: 0, error_message: 'No face detected.', error_code: 'no_face' });
    expect(await screen.findByRole('heading', { name: 'We could not create your image' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'No face detected. Please ensure your face is clearly visible and well-lit.',
    );
    expect(screen.getByRole('button', { name: 'Take a new photo' })).toBeTruthy();
  });

  it('starts over when the stored job is gone (404)', async () => {
    api.fetchQueueStatus.mockRejectedValue(Object.assign(new Error('Not found'), { status: 404 }));
    await openResult();
    await waitFor(() => expect(currentPath()).toBe('/gb/en/start'));
    expect(sessionStore.getState()).toMatchObject({ currentJobId: null, consentGiven: false });
  });
});
