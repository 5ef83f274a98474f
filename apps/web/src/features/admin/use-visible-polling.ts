import { useEffect, useState } from 'react';

export interface Polled<T> {
  /** The last answer, kept while a later call fails so the figures stay on screen. */
  data: T | null;
  /** The last call's failure; null once a call succeeds again. */
  error: unknown;
}

const hidden = () => document.visibilityState === 'hidden';

/**
 * Calls `load` now and again `intervalMs` after each answer, only while the tab is visible: a hidden
 * tab asks nothing (an operator's dashboard left open overnight costs the server no queries), and
 * coming back asks at once. A new `load` (another date range) starts over.
 */
export function useVisiblePolling<T>(load: () => Promise<T>, intervalMs: number): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ data: null, error: null });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let stopped = false;

    const tick = async () => {
      timer = undefined;
      if (hidden() || inFlight) return;
      inFlight = true;
      try {
        const data = await load();
        if (!stopped) setState({ data, error: null });
      } catch (error) {
        if (!stopped) setState((previous) => ({ data: previous.data, error }));
      } finally {
        inFlight = false;
      }
      if (!stopped && !hidden()) timer = setTimeout(tick, intervalMs);
    };
    const onVisibility = () => {
      if (hidden()) {
        clearTimeout(timer);
        timer = undefined;
      } else if (timer === undefined && !inFlight) {
        void tick();
      }
    };

    void tick();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [load, intervalMs]);

  return state;
}
