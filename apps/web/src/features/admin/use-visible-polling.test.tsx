import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useVisiblePolling } from './use-visible-polling';

let visibility: DocumentVisibilityState = 'visible';

function setVisibility(next: DocumentVisibilityState) {
  visibility = next;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('figures refreshed while the tab is visible', () => {
  it('asks at once, then every interval, and keeps the last answer through a failure', async () => {
    let n = 0;
    const load = vi.fn(async () => {
      n += 1;
      if (n === 3) throw new Error('offline');
      return n;
    });
    const { result } = renderHook(() => useVisiblePolling(load, 5000));
    await act(async () => {});
    expect(result.current).toEqual({ data: 1, error: null });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(result.current.data).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(result.current.data).toBe(2);
    expect(result.current.error).toBeInstanceOf(Error);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(result.current).toEqual({ data: 4, error: null });
  });

  it('asks nothing while the tab is hidden and asks at once when it is shown again', async () => {
    const load = vi.fn(async () => 'figures');
    renderHook(() => useVisiblePolling(load, 5000));
    await act(async () => {});
    expect(load).toHaveBeenCalledTimes(1);
    act(() => setVisibility('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => setVisibility('visible'));
    expect(load).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops asking once the panel is gone', async () => {
    const load = vi.fn(async () => 1);
    const { unmount } = renderHook(() => useVisiblePolling(load, 5000));
    await act(async () => {});
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(load).toHaveBeenCalledTimes(1);
  });
});
