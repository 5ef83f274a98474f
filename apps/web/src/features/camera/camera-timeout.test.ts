import { afterEach, describe, expect, it, vi } from 'vitest';
import { CameraTimeoutError, isCameraTimeout, withCameraTimeout } from './camera-timeout';

afterEach(() => vi.useRealTimers());

describe('a camera request with a time limit', () => {
  it('passes a camera that starts in time, and its refusal', async () => {
    await expect(withCameraTimeout(Promise.resolve(), () => {}, 1000)).resolves.toBeUndefined();
    const denied = Object.assign(new Error('denied'), { name: 'NotAllowedError' });
    await expect(withCameraTimeout(Promise.reject(denied), () => {}, 1000)).rejects.toBe(denied);
  });

  it('gives up after the limit, and stops a camera that turns up later', async () => {
    vi.useFakeTimers();
    let late: () => void = () => {};
    const onLate = vi.fn();
    const attempt = withCameraTimeout(new Promise<void>((resolve) => (late = resolve)), onLate, 10_000);
    const outcome = attempt.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(CameraTimeoutError);
    expect(isCameraTimeout(error)).toBe(true);
    late();
    await Promise.resolve();
    await Promise.resolve();
    expect(onLate).toHaveBeenCalledOnce();
  });
});
