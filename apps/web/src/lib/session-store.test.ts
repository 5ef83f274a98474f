import { SESSION_STORAGE_KEY, SESSION_TTL_MS } from '@selfie-mosaic/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from './session-store';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

let storage: MemoryStorage;
let clock: number;
let ids: number;
const options = () => ({ storage, now: () => clock, createId: () => `session-${clock}-id${++ids}` });
const saved = () => JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null');

beforeEach(() => {
  storage = new MemoryStorage();
  clock = 1_700_000_000_000;
  ids = 0;
});

describe('session store', () => {
  it('starts a fresh session with a new id and nothing answered', () => {
    const state = createSessionStore(options()).getState();
    expect(state).toMatchObject({
      userSessionId: `session-${clock}-id1`,
      questionAnswer: null,
      consentGiven: false,
      currentJobId: null,
      isProcessing: false,
      serverLoadDetected: false,
    });
  });

  it('saves exactly the saved-copy fields plus lastUpdated under one key', () => {
    const store = createSessionStore(options());
    store.update({
      questionAnswer: 'yes',
      consentGiven: true,
      currentCountry: 'de',
      currentLanguage: 'de',
      currentJobId: 'job-1',
      isProcessing: true,
      isUploading: true,
      error: 'noFace',
      serverLoadDetected: true,
      queueStatus: { status: 'queued', queue_position: 2, error_message: null },
    });
    expect([...storage.items.keys()]).toEqual([SESSION_STORAGE_KEY]);
    expect(Object.keys(saved()).sort()).toEqual(
      [
        'consentGiven',
        'currentCountry',
        'currentJobId',
        'currentLanguage',
        'isProcessing',
        'lastUpdated',
        'processedImage',
        'questionAnswer',
        'storyImage',
        'layingPlan',
        'artworkRevealed',
        'handoffId',
        'handoffRole',
        'userSessionId',
      ].sort(),
    );
    expect(saved().lastUpdated).toBe(clock);
  });

  it('restores a saved session on the next load', () => {
    createSessionStore(options()).update({ questionAnswer: 'yes', consentGiven: true, currentJobId: 'job-1' });
    clock += 60_000;
    const restored = createSessionStore(options()).getState();
    expect(restored).toMatchObject({
      userSessionId: expect.stringMatching(/id1$/),
      consentGiven: true,
      currentJobId: 'job-1',
    });
    // Page-only fields never come back from storage.
    expect(restored.isUploading).toBe(false);
    expect(restored.error).toBeNull();
  });

  it('keeps a session saved just under 24 hours ago and discards one older than that', () => {
    createSessionStore(options()).update({ consentGiven: true });
    clock += SESSION_TTL_MS;
    expect(createSessionStore(options()).getState().consentGiven).toBe(true);
    clock += 1;
    const expired = createSessionStore(options()).getState();
    expect(expired.consentGiven).toBe(false);
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('discards a saved copy that cannot be parsed or has the wrong shape', () => {
    storage.setItem(SESSION_STORAGE_KEY, '{not json');
    expect(createSessionStore(options()).getState().consentGiven).toBe(false);
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ consentGiven: true }));
    expect(createSessionStore(options()).getState().consentGiven).toBe(false);
  });

  it('reset clears everything, storage included, and starts a new session id', () => {
    const store = createSessionStore(options());
    const firstId = store.getState().userSessionId;
    store.update({ questionAnswer: 'yes', consentGiven: true, currentJobId: 'job-1' });
    store.reset();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(store.getState()).toMatchObject({ questionAnswer: null, consentGiven: false, currentJobId: null });
    expect(store.getState().userSessionId).not.toBe(firstId);
  });

  it('clearPhotoData keeps the session, consent and answer but forgets the job and image', () => {
    const store = createSessionStore(options());
    const id = store.getState().userSessionId;
    store.update({
      questionAnswer: 'yes',
      consentGiven: true,
      currentCountry: 'de',
      currentLanguage: 'de',
      currentJobId: 'job-1',
      processedImage: '/files/x.jpg',
      isProcessing: true,
      error: 'noFace',
    });
    store.clearPhotoData();
    expect(store.getState()).toMatchObject({
      userSessionId: id,
      questionAnswer: 'yes',
      consentGiven: true,
      currentCountry: 'de',
      currentJobId: null,
      processedImage: null,
      isProcessing: false,
      error: null,
    });
    expect(saved()).toMatchObject({ userSessionId: id, consentGiven: true, currentJobId: null });
  });

  it('remembers a hand-off across a reload, and forgets it with the job or the session', () => {
    const handoffId = '7d1f8a52-3c4e-4b6a-9f0e-2a1b3c4d5e6f';
    createSessionStore(options()).update({ consentGiven: true, handoffId, handoffRole: 'desktop' });
    const desktop = createSessionStore(options());
    expect(desktop.getState()).toMatchObject({ handoffId, handoffRole: 'desktop' });
    // A new photo on the desktop is its own: no phone is followed for it.
    desktop.clearPhotoData();
    expect(desktop.getState()).toMatchObject({ handoffId: null, handoffRole: null, consentGiven: true });

    const phone = createSessionStore(options());
    phone.update({ handoffId, handoffRole: 'phone', currentJobId: 'job-1' });
    // The phone's code was used: its next upload carries no hand-off, but it is still the phone.
    phone.clearPhotoData();
    expect(phone.getState()).toMatchObject({ handoffId: null, handoffRole: 'phone' });
    expect(saved()).toMatchObject({ handoffId: null, handoffRole: 'phone' });
    phone.reset();
    expect(phone.getState()).toMatchObject({ handoffId: null, handoffRole: null });
  });

  it('tells subscribers about every change', () => {
    const store = createSessionStore(options());
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.update({ consentGiven: true });
    store.clearPhotoData();
    store.reset();
    unsubscribe();
    store.update({ consentGiven: true });
    expect(calls).toBe(3);
  });

  it('keeps working in memory when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createSessionStore({ ...options(), storage: broken });
    store.update({ consentGiven: true });
    expect(store.getState().consentGiven).toBe(true);
  });
});
