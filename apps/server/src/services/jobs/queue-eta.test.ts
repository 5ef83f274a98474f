import { describe, expect, it } from 'vitest';
import type { RecentRender } from '../types.js';
import { QueueClock } from './queue-clock.js';
import { busyRate, etaSeconds, measureThroughput, mostAtOnce, type Throughput } from './queue-eta.js';

const prior = { workers: 2, renderMs: 1000 };

/** Ends of `workers` workers that started together at `t0` and each render back to back, newest first. */
function busyRun(t0: number, workers: number, renderMs: number, rounds: number): RecentRender[] {
  const renders: RecentRender[] = [];
  for (let round = 1; round <= rounds; round++)
    for (let w = 0; w < workers; w++) renders.push({ endedAt: t0 + round * renderMs + w, renderMs });
  return renders.reverse();
}

describe('the throughput the estimate rests on', () => {
  it('is the prior (configured workers over a typical render) before any render is measured', () => {
    expect(measureThroughput([], prior)).toEqual({ workers: 2, jobsPerSecond: 2, renderMs: 1000, measured: 0 });
    // An API-only process runs no workers: it assumes one until the history shows the others.
    expect(measureThroughput([], { workers: 0, renderMs: 1000 }).jobsPerSecond).toBe(1);
  });

  it('counts the workers of every process seen rendering at once: 4 workers of 2 s finish 2 jobs a second', () => {
    const throughput = measureThroughput(busyRun(0, 4, 2000, 10), { workers: 0, renderMs: 1000 });
    expect(mostAtOnce(busyRun(0, 4, 2000, 10))).toBe(4);
    expect(throughput).toEqual({ workers: 4, jobsPerSecond: 2, renderMs: 2000, measured: 40 });
  });

  it('keeps the capacity after a quiet spell: jobs one at a time with long pauses do not slow the next queue', () => {
    const quiet = [0, 60_000, 120_000].map((at) => ({ endedAt: at + 500, renderMs: 500 })).reverse();
    expect(measureThroughput(quiet, { workers: 2, renderMs: 1000 }).jobsPerSecond).toBe(4);
  });

  it('counts the time between renders when the workers have been busy (scale mode: round trips as long as a render)', () => {
    // 2 workers, 300 ms renders, 300 ms of queue and record keeping after each: an end every 300 ms.
    const renders = Array.from({ length: 20 }, (_, i) => ({ endedAt: 100_000 - i * 300, renderMs: 300 }));
    expect(busyRate(renders, 2, 300)).toBeCloseTo(1000 / 300, 5);
    const throughput = measureThroughput(renders, { workers: 2, renderMs: 1000 });
    expect(throughput.jobsPerSecond).toBeCloseTo(1000 / 300, 5);
  });

  it("does not count one worker's back-to-back renders as two at once", () => {
    expect(mostAtOnce(busyRun(0, 1, 800, 5))).toBe(1);
  });

  it('takes the render time from the latest few renders, so it follows the machine speeding up', () => {
    const renders = [...busyRun(100_000, 1, 400, 9), ...busyRun(0, 1, 900, 30)];
    expect(measureThroughput(renders, prior).renderMs).toBe(400);
  });

  it('is not slowed by a burst of uploads that stretched the latest few renders (the burst ends before its queue)', () => {
    const renders = [...busyRun(10_000, 1, 500, 5), ...busyRun(0, 1, 200, 15)];
    const throughput = measureThroughput(renders, prior);
    expect(throughput.renderMs).toBe(200);
    expect(throughput.jobsPerSecond).toBeCloseTo(5, 5);
  });

  it('follows a machine that has slowed down for good within one window of renders', () => {
    const renders = [...busyRun(100_000, 1, 900, 20), ...busyRun(0, 1, 400, 20)];
    expect(measureThroughput(renders, prior).renderMs).toBe(900);
  });

  it('takes a robust render time (the lower quartile of the latest), so one slow photo does not double every estimate', () => {
    const renders = busyRun(0, 1, 800, 9);
    (renders[0] as RecentRender).renderMs = 8000;
    expect(measureThroughput(renders, prior).renderMs).toBe(800);
  });
});

describe('the seconds until the artwork is ready', () => {
  const twoPerSecond: Throughput = { workers: 6, jobsPerSecond: 2, renderMs: 3000, measured: 20 };

  it('for a waiting job: the first worker to free up, the jobs ahead at the measured rate, then its own render', () => {
    // 6 workers of 3 s: the first frees up after ~0.43 s; 39 more jobs at 2 a second; 3 s of its own.
    expect(etaSeconds({ status: 'queued', position: 1, renderingForMs: 0 }, twoPerSecond)).toBe(3);
    expect(etaSeconds({ status: 'queued', position: 40, renderingForMs: 0 }, twoPerSecond)).toBe(23);
    expect(etaSeconds({ status: 'pending', position: 1, renderingForMs: 0 }, twoPerSecond)).toBe(3);
  });

  it('for a rendering job: what is left of a typical render, never less than a second', () => {
    expect(etaSeconds({ status: 'processing', position: 0, renderingForMs: 1000 }, twoPerSecond)).toBe(2);
    expect(etaSeconds({ status: 'processing', position: 0, renderingForMs: 9000 }, twoPerSecond)).toBe(1);
  });

  it('is null once the job has ended, and for the overload signal', () => {
    for (const status of ['completed', 'failed', 'error'] as const)
      expect(etaSeconds({ status, position: 0, renderingForMs: 0 }, twoPerSecond)).toBeNull();
  });
});

describe('QueueClock', () => {
  it('reads the history once for a burst of estimates, and again once the measurement is stale', async () => {
    let now = 1_000_000;
    let reads = 0;
    const clock = new QueueClock(
      {
        recentRenders: async () => {
          reads++;
          return busyRun(now - 10_000, 2, 1000, 5);
        },
      },
      prior,
      () => now,
    );
    const etas = await Promise.all([1, 2, 3].map((position) => clock.eta({ status: 'queued', position })));
    expect(etas.every((eta) => Number.isInteger(eta) && (eta as number) >= 1)).toBe(true);
    expect(etas).toEqual([...etas].sort((a, b) => (a as number) - (b as number)));
    expect(reads).toBe(1);
    now += 1000;
    await clock.eta({ status: 'queued', position: 1 });
    expect(reads).toBe(2);
  });

  it('falls back to the prior when the history cannot be read, instead of failing the status', async () => {
    const clock = new QueueClock({ recentRenders: () => Promise.reject(new Error('database gone')) }, prior);
    // Prior: 2 jobs a second, 1 s each: position 4 starts in 2 s and is ready 1 s later.
    expect(await clock.eta({ status: 'queued', position: 4 })).toBe(3);
  });

  it('counts how long a job has been rendering', async () => {
    const clock = new QueueClock({ recentRenders: async () => [] }, { workers: 1, renderMs: 10_000 }, () => 50_000);
    expect(await clock.eta({ status: 'processing', position: 0 }, 44_000)).toBe(4);
  });
});
