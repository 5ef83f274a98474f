import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, isChunkLoadError, reloadAfterChunkError } from './chunk-reload';

function memory() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('reload after a chunk failure', () => {
  it('reloads once, then not again within 10 s, then again after', () => {
    const storage = memory();
    const reload = vi.fn();
    let now = 1_000_000;
    const deps = { storage, now: () => now, reload };
    expect(reloadAfterChunkError(deps)).toBe(true);
    expect(storage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
    now += 9_999;
    expect(reloadAfterChunkError(deps)).toBe(false);
    now += 1;
    expect(reloadAfterChunkError(deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('recognises the browsers’ chunk errors and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});
