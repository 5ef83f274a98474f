import { type MockInstance, vi } from 'vitest';

/** Answers the app's `fetch` calls with `handler` until `vi.restoreAllMocks()`. */
export function answerFetch(handler: typeof fetch): MockInstance<typeof fetch> {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(handler);
}
