import { CHUNK_RELOAD_GUARD_MS } from '@selfie-mosaic/contract';

export const CHUNK_RELOAD_KEY = 'selfie-mosaic-chunk-reload';

interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  reload: () => void;
}

/**
 * A chunk failed to load, usually because a new deployment replaced the hashed files: reload once
 * to get the new index.html. Returns false (and leaves the error to the error page) when the last
 * such reload was less than 10 s ago, so a truly broken deployment cannot loop.
 */
export function reloadAfterChunkError({ storage, now, reload }: ReloadDeps): boolean {
  const last = Number(storage?.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && now() - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage?.setItem(CHUNK_RELOAD_KEY, String(now()));
  reload();
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Unable to preload/i.test(
    message,
  );
}

function sessionStorageOrNull(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function reloadForChunkError(): boolean {
  return reloadAfterChunkError({
    storage: sessionStorageOrNull(),
    now: Date.now,
    reload: () => globalThis.location.reload(),
  });
}

/** Vite fires `vite:preloadError` when a lazy chunk or its CSS fails to load. */
export function installChunkErrorReload(target: Window = window): void {
  target.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });
}
