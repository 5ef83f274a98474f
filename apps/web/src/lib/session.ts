import { useSyncExternalStore } from 'react';
import { createSessionStore, type Session } from './session-store';

/** The one session of this tab, saved to localStorage. */
export const sessionStore = createSessionStore();

export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}
