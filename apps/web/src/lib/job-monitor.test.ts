import { ARTWORK, type QueueStatus, type ResultResponse, STORY_ARTWORK } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { JobMonitor, type MonitorHandlers, parseStatus, type StreamLike } from './job-monitor';

class FakeStream implements StreamLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  send(status: Partial<QueueStatus>) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(status) }));
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
}

const RESULT: ResultResponse = {
  job_id: '00000000-0000-4000-8000-000000000000',
  status: 'completed',
  file_path: '/files/abc/artwork.jpg',
  width: ARTWORK.width,
  height: ARTWORK.height,
  story_path: '/files/abc/artwork.story.jpg',
  story_width: STORY_ARTWORK.width,
  story_height: STORY_ARTWORK.height,
  plan_path: '/files/abc/artwork.plan',
  expires_at: '2026-01-01T00:00:00.000Z',
};

const queued = (position: number): QueueStatus => ({ status: 'queued', queue_position: position, error_message: null });

function httpError(status: number) {
  return Object.assign(new Error(`HTTP ${status}`), { status });
}

let stream: FakeStream;
let pollAnswers: Array<QueueStatus | Error>;
let pollTimes: number[];
let start: number;
let handlers: { [K in keyof MonitorHandlers]: ReturnType<typeof vi.fn> };
let fetchResult: Mock<(jobId: string) => Promise<ResultResponse>>;

function createMonitor() {
  stream = new FakeStream();
  fetchResult = vi.fn(async (_jobId: string) => RESULT);
  handlers = { onStatus: vi.fn(), onServerLoad: vi.fn(), onCompleted: vi.fn(), onFailed: vi.fn() };
  const monitor = new JobMonitor(
    'job-1',
    {
      openStream: () => stream,
      fetchStatus: async () => {
        pollTimes.push(Date.now() - start);
        const answer = pollAnswers.shift() ?? queued(3);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      fetchResult,
    },
    handlers as unknown as MonitorHandlers,
  );
  monitor.start();
  return monitor;
}

/** The gaps between polls, in ms. */
function gaps(): number[] {
  return pollTimes.map((time, index) => time - (index === 0 ? 0 : (pollTimes[index - 1] ?? 0)));
}

beforeEach(() => {
  vi.useFakeTimers();
  start = Date.now();
  pollAnswers = [];
  pollTimes = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('job monitor: the event stream', () => {
  it('reports each status and, on completed, closes the stream and fetches the result', async () => {
    const monitor = createMonitor();
    stream.open();
    stream.send(queued(2));
    stream.send({ status: 'processing', queue_position: 0, error_message: null });
    expect(handlers.onStatus).toHaveBeenCalledTimes(2);
    stream.send({ status: 'completed', queue_position: 0, error_message: null });
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchResult).toHaveBeenCalledWith('job-1');
    expect(handlers.onCompleted).toHaveBeenCalledWith(RESULT);
    expect(monitor.phase).toBe('done');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toEqual([]);
  });

  it('on failed stops, closes the stream and shows error_message with the refusal code', async () => {
    const monitor = createMonitor();
    stream.open();
    stream.send({ status: 'failed', queue_position: 0, error_message: 'No face detected.', error_code: 'no_face' });
    expect(stream.closed).toBe(true);
    expect(handlers.onFailed).toHaveBeenCalledWith('no_face');
    expect(monitor.phase).toBe('done');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toEqual([]);
    expect(fetchResult).not.toHaveBeenCalled();
  });

  it('on error (heavy load) sets the load flag, closes the stream and polls from 2000 ms', async () => {
    createMonitor();
    stream.open();
    stream.send({ status: 'error', queue_position: 0, error_message: 'Server is under heavy load' });
    expect(handlers.onServerLoad).toHaveBeenCalledWith(true);
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1999);
    expect(pollTimes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(pollTimes).toEqual([2000]);
  });

  it('switches to polling when the stream errors', async () => {
    createMonitor();
    stream.open();
    stream.fail();
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(pollTimes).toEqual([2000]);
  });

  it('switches to polling when the stream does not connect within 5 s', async () => {
    createMonitor();
    await vi.advanceTimersByTimeAsync(4999);
    expect(stream.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(pollTimes).toEqual([7000]);
  });

  it('keeps the stream when it connects in time, or when a message arrives first', async () => {
    createMonitor();
    await vi.advanceTimersByTimeAsync(4000);
    stream.open();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stream.closed).toBe(false);
    expect(pollTimes).toEqual([]);

    createMonitor();
    stream.send(queued(1));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stream.closed).toBe(false);
    expect(pollTimes).toEqual([]);
  });

  it('ignores messages that are not status objects', () => {
    createMonitor();
    stream.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    stream.onmessage?.(new MessageEvent('message', { data: '{"queue_position":1}' }));
    expect(handlers.onStatus).not.toHaveBeenCalled();
  });
});

describe('job monitor: polling', () => {
  async function pollingAfterStreamError() {
    const monitor = createMonitor();
    stream.fail();
    return monitor;
  }

  it('grows the delay by 1.5 on each error up to 10000 ms: 2000, 3000, 4500, 6750, 10000, 10000', async () => {
    pollAnswers = Array.from({ length: 6 }, () => httpError(500));
    const monitor = await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000 + 3000 + 4500 + 6750 + 10_000 + 10_000);
    expect(gaps()).toEqual([2000, 3000, 4500, 6750, 10_000, 10_000]);
    expect(monitor.pollDelay).toBe(10_000);
    expect(handlers.onServerLoad).not.toHaveBeenCalled();
  });

  it('shrinks the delay by 0.8 on each success without load, never below 2000 ms', async () => {
    pollAnswers = [...Array.from({ length: 4 }, () => httpError(503)), ...Array.from({ length: 9 }, () => queued(2))];
    const monitor = await pollingAfterStreamError();
    // 4 errors: 2000 → 3000 → 4500 → 6750 → 10000; then successes shrink from 10000.
    const expected = [2000, 3000, 4500, 6750, 10_000, 8000, 6400, 5120, 4096, 3276.8, 2621.44, 2097.152, 2000];
    await vi.advanceTimersByTimeAsync(expected.reduce((sum, gap) => sum + gap, 0));
    // The clock counts whole milliseconds, so fractional delays land within 1 ms.
    const measured = gaps();
    expect(measured).toHaveLength(expected.length);
    for (const [index, gap] of measured.entries()) {
      expect(Math.abs(gap - (expected[index] ?? 0))).toBeLessThanOrEqual(1);
    }
    expect(monitor.pollDelay).toBe(2000);
  });

  it('treats 408 as heavy load: sets the flag, backs off, keeps the pace on the next success, then shrinks', async () => {
    pollAnswers = [httpError(408), httpError(408), queued(2), queued(2), queued(2)];
    const monitor = await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000);
    expect(handlers.onServerLoad).toHaveBeenLastCalledWith(true);
    expect(monitor.pollDelay).toBe(3000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(monitor.pollDelay).toBe(4500);
    // The first answer under load keeps 4500 and lowers the flag; the next ones shrink.
    await vi.advanceTimersByTimeAsync(4500);
    expect(monitor.pollDelay).toBe(4500);
    expect(handlers.onServerLoad).toHaveBeenLastCalledWith(false);
    await vi.advanceTimersByTimeAsync(4500);
    expect(monitor.pollDelay).toBe(3600);
    await vi.advanceTimersByTimeAsync(3600);
    expect(monitor.pollDelay).toBe(2880);
    expect(gaps()).toEqual([2000, 3000, 4500, 4500, 3600]);
  });

  it('reports each polled status', async () => {
    pollAnswers = [queued(3), queued(2)];
    await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000 + 2000);
    expect(handlers.onStatus.mock.calls.map(([status]) => status.queue_position)).toEqual([3, 2]);
  });

  it('fetches the result when a poll says completed', async () => {
    pollAnswers = [queued(1), { status: 'completed', queue_position: 0, error_message: null }];
    const monitor = await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000 + 2000);
    expect(handlers.onCompleted).toHaveBeenCalledWith(RESULT);
    expect(monitor.phase).toBe('done');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toHaveLength(2);
  });

  it('reports the refusal code when a poll says failed, or processingFailed when there is none', async () => {
    pollAnswers = [
      { status: 'failed', queue_position: 0, error_message: 'The photo is too dark.', error_code: 'too_dark' },
    ];
    await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000);
    expect(handlers.onFailed).toHaveBeenCalledWith('too_dark');

    pollTimes = [];
    pollAnswers = [{ status: 'failed', queue_position: 0, error_message: null }];
    await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000);
    expect(handlers.onFailed).toHaveBeenCalledWith('processingFailed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toHaveLength(1);
  });

  it('reports resultNotFound when the result cannot be fetched', async () => {
    pollAnswers = [{ status: 'completed', queue_position: 0, error_message: null }];
    await pollingAfterStreamError();
    fetchResult.mockRejectedValueOnce(httpError(404));
    await vi.advanceTimersByTimeAsync(2000);
    expect(handlers.onFailed).toHaveBeenCalledWith('resultNotFound');
  });

  it('stop() ends polling and ignores answers still on the way', async () => {
    const monitor = await pollingAfterStreamError();
    await vi.advanceTimersByTimeAsync(2000);
    monitor.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toEqual([2000]);
    expect(monitor.phase).toBe('stopped');
  });

  it('stop() during the stream closes it and never polls', async () => {
    const monitor = createMonitor();
    monitor.stop();
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toEqual([]);
  });
});

describe('parseStatus', () => {
  it('reads status messages and fills what is missing', () => {
    expect(parseStatus('{"status":"queued","queue_position":4}')).toEqual({
      status: 'queued',
      queue_position: 4,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });
    expect(parseStatus('{"status":"queued","queue_position":4,"eta_seconds":37}')?.eta_seconds).toBe(37);
    expect(parseStatus('[]')).toBeNull();
    expect(parseStatus(42)).toBeNull();
  });
});
