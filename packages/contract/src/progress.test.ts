import { describe, expect, it } from 'vitest';
import { POLL } from './constants.js';
import { nextPollDelay, progressForPosition } from './progress.js';

describe('progressForPosition', () => {
  it('is full while the image is being processed', () => {
    expect(progressForPosition(0)).toBe(100);
  });

  it('drops 20 points a place in the queue', () => {
    expect(progressForPosition(1)).toBe(80);
    expect(progressForPosition(2)).toBe(60);
    expect(progressForPosition(4)).toBe(20);
  });

  it('never shows less than 10', () => {
    expect(progressForPosition(5)).toBe(10);
    expect(progressForPosition(250)).toBe(10);
  });
});

describe('nextPollDelay', () => {
  it('starts at 2000 ms and grows by 1.5 on each error up to 10000 ms', () => {
    const steps: number[] = [];
    let delay: number = POLL.initialMs;
    for (let i = 0; i < 6; i++) {
      delay = nextPollDelay(delay, 'error');
      steps.push(delay);
    }
    expect(steps).toEqual([3000, 4500, 6750, 10000, 10000, 10000]);
  });

  it('shrinks by 0.8 on success without load, never below 2000 ms', () => {
    expect(nextPollDelay(10000, 'success')).toBe(8000);
    expect(nextPollDelay(8000, 'success')).toBe(6400);
    expect(nextPollDelay(2400, 'success')).toBe(2000);
    expect(nextPollDelay(2000, 'success')).toBe(2000);
  });

  it('holds the delay on a success while the server reports load', () => {
    expect(nextPollDelay(6750, 'success-under-load')).toBe(6750);
  });

  it('never goes below 2000 ms, whatever it is given', () => {
    expect(nextPollDelay(100, 'success-under-load')).toBe(2000);
    expect(nextPollDelay(0, 'error')).toBe(3000);
  });
});
