import { ARTWORK, type QueueStatus, type ResultResponse, STORY_ARTWORK } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import type { StreamLike } from './job-monitor';
import { JobSession } from './job-session';
import { createSessionStore, type SessionStore } from './session-store';

const RESULT: ResultResponse = {
  job_id: '00000000-0000-4000-8000-000000000000',
  status: 'completed',
  file_path: '/files/token/artwork.jpg',
  width: ARTWORK.width,
  height: ARTWORK.height,
  story_path: '/files/token/artwork.story.jpg',
  story_width: STORY_ARTWORK.width,
  story_height: STORY_ARTWORK.height,
  plan_path: '/files/token/artwork.plan',
  expires_at: '2026-01-01T00:00:00.000Z',
};

const status = (value: string, position = 0): QueueStatus =>
  ({ status: value, queue_position: position, error_message: null }) as QueueStatus;

function httpError(code: number) {
  return Object.assign(new Error(`HTTP ${code}`), { status: code });
}

let store: SessionStore;
let streams: StreamLike[];
let fetchStatus: Mock<(jobId: string) => Promise<QueueStatus>>;
let fetchResult: Mock<(jobId: string) => Promise<ResultResponse>>;
let session: JobSession;

beforeEach(() => {
  vi.useFakeTimers();
  store = createSessionStore({ storage: null });
  store.update({ questionAnswer: 'yes', consentGiven: true, currentJobId: 'job-1', isProcessing: true });
  streams = [];
  fetchStatus = vi.fn<(jobId: string) => Promise<QueueStatus>>();
  fetchResult = vi.fn(async (_jobId: string) => RESULT);
  session = new JobSession(store, {
    openStream: () => {
      const stream: StreamLike = { onopen: null, onmessage: null, onerror: null, close: vi.fn() };
      streams.push(stream);
      return stream;
    },
    fetchStatus,
    fetchResult,
    artworkUrl: (path) => `https://api.example${path}`,
  });
});

afterEach(() => {
  session.stopMonitoring();
  vi.useRealTimers();
});

describe('validating a stored job', () => {
  it('completed: fetches the result and returns true', async () => {
    fetchStatus.mockResolvedValue(status('completed'));
    await expect(session.validateStoredJob()).resolves.toBe(true);
    expect(store.getState()).toMatchObject({
      processedImage: 'https://api.example/files/token/artwork.jpg',
      storyImage: 'https://api.example/files/token/artwork.story.jpg',
      layingPlan: 'https://api.example/files/token/artwork.plan',
      isProcessing: false,
      currentJobId: 'job-1',
    });
  });

  it('failed: resets the session and returns false', async () => {
    fetchStatus.mockResolvedValue(status('failed'));
    await expect(session.validateStoredJob()).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ currentJobId: null, consentGiven: false, questionAnswer: null });
  });

  it.each(['processing', 'queued', 'pending'])('%s: resumes monitoring and returns true', async (value) => {
    fetchStatus.mockResolvedValue(status(value, 2));
    await expect(session.validateStoredJob()).resolves.toBe(true);
    expect(session.monitoring).toBe(true);
    expect(streams).toHaveLength(1);
    expect(store.getState()).toMatchObject({ currentJobId: 'job-1', isProcessing: true });
    expect(store.getState().queueStatus?.queue_position).toBe(2);
  });

  it('any other status: resets the session', async () => {
    fetchStatus.mockResolvedValue(status('archived'));
    await expect(session.validateStoredJob()).resolves.toBe(false);
    expect(store.getState().currentJobId).toBeNull();
  });

  it('404 on lookup: resets the session', async () => {
    fetchStatus.mockRejectedValue(httpError(404));
    await expect(session.validateStoredJob()).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ currentJobId: null, consentGiven: false });
  });

  it('other lookup errors keep the session', async () => {
    fetchStatus.mockRejectedValue(httpError(503));
    await expect(session.validateStoredJob()).resolves.toBe(true);
    expect(store.getState()).toMatchObject({ currentJobId: 'job-1', consentGiven: true });
    fetchStatus.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(session.validateStoredJob()).resolves.toBe(true);
    expect(store.getState().currentJobId).toBe('job-1');
  });
});

describe('job session', () => {
  it('startJob stores the job, marks it processing and opens the stream', () => {
    store.update({ currentJobId: null, isProcessing: false, isUploading: true, artworkRevealed: true });
    session.startJob('job-2', status('queued', 3));
    expect(store.getState()).toMatchObject({
      currentJobId: 'job-2',
      isProcessing: true,
      isUploading: false,
      queueStatus: { queue_position: 3 },
      // A new job's artwork is laid again.
      layingPlan: null,
      artworkRevealed: false,
    });
    expect(streams).toHaveLength(1);
  });

  it('stream updates land in the session, completion stores the artwork URL', async () => {
    session.startJob('job-2', status('queued', 3));
    const stream = streams[0] as StreamLike;
    stream.onmessage?.(new MessageEvent('message', { data: JSON.stringify(status('queued', 1)) }));
    expect(store.getState().queueStatus?.queue_position).toBe(1);
    stream.onmessage?.(new MessageEvent('message', { data: JSON.stringify(status('completed')) }));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState()).toMatchObject({
      processedImage: 'https://api.example/files/token/artwork.jpg',
      isProcessing: false,
    });
  });

  it('a refusal stores its code so the screen can translate it', () => {
    session.startJob('job-2', null);
    streams[0]?.onmessage?.(
      new MessageEvent('message', {
        data: JSON.stringify({ status: 'failed', queue_position: 0, error_message: 'No face', error_code: 'no_face' }),
      }),
    );
    expect(store.getState()).toMatchObject({ isProcessing: false, error: 'no_face' });
  });

  it('reset stops polling and clears storage; clearPhotoData keeps consent', async () => {
    session.startJob('job-2', null);
    streams[0]?.onerror?.(new Event('error'));
    session.clearPhotoData();
    expect(store.getState()).toMatchObject({ currentJobId: null, consentGiven: true, questionAnswer: 'yes' });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchStatus).not.toHaveBeenCalled();

    session.startJob('job-3', null);
    streams[1]?.onerror?.(new Event('error'));
    session.reset();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchStatus).not.toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ currentJobId: null, consentGiven: false });
  });
});
