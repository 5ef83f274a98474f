import { type HandoffStatus, POLL, STREAM_CONNECT_TIMEOUT_MS } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from './api-error';
import { HandoffMonitor, parseHandoffStatus } from './handoff-monitor';
import type { StreamLike } from './stream-follower';

class FakeStream implements StreamLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
  }
  send(data: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}

const JOB = '00000000-0000-4000-8000-000000000007';
const EXPIRES = '2030-01-01T00:10:00.000Z';
const at = (state: HandoffStatus['state'], jobId: string | null = null): HandoffStatus => ({
  state,
  job_id: jobId,
  expires_at: EXPIRES,
});

let stream: FakeStream;
let answers: Array<HandoffStatus | Error>;
let polls: number;
const handlers = { onStatus: vi.fn(), onGone: vi.fn(), onServerLoad: vi.fn() };

function follow() {
  stream = new FakeStream();
  const monitor = new HandoffMonitor(
    'h-1',
    {
      openStream: () => stream,
      fetchStatus: async () => {
        polls += 1;
        const answer = answers.shift() ?? at('waiting');
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    handlers,
  );
  monitor.start();
  return monitor;
}

beforeEach(() => {
  vi.useFakeTimers();
  answers = [];
  polls = 0;
  for (const handler of Object.values(handlers)) handler.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('hand-off monitor', () => {
  it('reports each state from the stream and stops for good once the photo is submitted', async () => {
    const monitor = follow();
    stream.send(at('waiting'));
    stream.send(at('connected'));
    stream.send(at('uploading'));
    stream.send(at('submitted', JOB));
    expect(handlers.onStatus.mock.calls.map(([status]) => status.state)).toEqual([
      'waiting',
      'connected',
      'uploading',
      'submitted',
    ]);
    expect(handlers.onStatus).toHaveBeenLastCalledWith(at('submitted', JOB));
    expect(stream.closed).toBe(true);
    expect(monitor.active).toBe(false);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(polls).toBe(0);
  });

  it('polls with backoff when the stream never connects, and stops at expired', async () => {
    follow();
    answers = [at('waiting'), at('connected'), at('expired')];
    await vi.advanceTimersByTimeAsync(STREAM_CONNECT_TIMEOUT_MS);
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL.initialMs);
    expect(polls).toBe(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(polls).toBe(3);
    expect(handlers.onStatus).toHaveBeenLastCalledWith(at('expired'));
  });

  it('takes the job stream’s overload message as a reason to poll, and says the server is loaded', async () => {
    follow();
    stream.send({ status: 'error', queue_position: 0, error_message: 'Server is under heavy load' });
    expect(stream.closed).toBe(true);
    expect(handlers.onServerLoad).toHaveBeenCalledWith(true);
    answers = [at('connected')];
    await vi.advanceTimersByTimeAsync(POLL.initialMs);
    expect(handlers.onStatus).toHaveBeenCalledWith(at('connected'));
    expect(handlers.onServerLoad).toHaveBeenLastCalledWith(false);
  });

  it('keeps polling through a network error or a 408, and gives up on a hand-off the server no longer knows', async () => {
    follow();
    stream.onerror?.(new Event('error'));
    answers = [
      new ApiRequestError('network', 0, 'offline'),
      new ApiRequestError('overloaded', 408, 'busy'),
      new ApiRequestError('handoffNotFound', 404, 'gone'),
    ];
    await vi.advanceTimersByTimeAsync(600_000);
    expect(polls).toBe(3);
    expect(handlers.onServerLoad).toHaveBeenCalledWith(true);
    expect(handlers.onGone).toHaveBeenCalledTimes(1);
    expect(handlers.onStatus).not.toHaveBeenCalled();
  });

  it('stops when asked, stream and polls alike', async () => {
    const monitor = follow();
    monitor.stop();
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(polls).toBe(0);
  });
});

describe('hand-off stream messages', () => {
  it('reads a state, the overload message, and ignores anything else', () => {
    expect(parseHandoffStatus(JSON.stringify(at('submitted', JOB)))).toEqual(at('submitted', JOB));
    expect(parseHandoffStatus('{"status":"error"}')).toBe('overloaded');
    expect(parseHandoffStatus('{"state":"dancing"}')).toBeNull();
    expect(parseHandoffStatus('not json')).toBeNull();
    expect(parseHandoffStatus(null)).toBeNull();
  });
});
