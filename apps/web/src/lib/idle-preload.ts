import { IDLE_PRELOAD_DELAY_MS } from '@selfie-mosaic/contract';

type Importer = () => Promise<unknown>;

/**
 * Runs the importers once the page is idle (at least IDLE_PRELOAD_DELAY_MS after the call), so the
 * next screen is already downloaded when the visitor taps on. Returns a cancel function.
 */
export function preloadWhenIdle(importers: readonly Importer[]): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  const run = () => {
    if (cancelled) return;
    for (const load of importers) load().catch(() => undefined);
  };
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idleHandle = requestIdleCallback(run, { timeout: 2000 });
    else run();
  }, IDLE_PRELOAD_DELAY_MS);
  return () => {
    cancelled = true;
    clearTimeout(timer);
    if (idleHandle !== undefined) cancelIdleCallback(idleHandle);
  };
}
