import { createSessionId, type QueueStatus, SESSION_STORAGE_KEY, SESSION_TTL_MS } from '@selfie-mosaic/contract';

/** The client-side session (docs/product.md#session). */
export interface Session {
  userSessionId: string;
  questionAnswer: 'yes' | 'no' | null;
  consentGiven: boolean;
  currentCountry: string | null;
  currentLanguage: string | null;
  currentJobId: string | null;
  queueStatus: QueueStatus | null;
  /** The artwork URL (API base + file_path) once the job completed. */
  processedImage: string | null;
  /** The 9:16 story version's URL (API base + story_path) beside it; null in sessions saved before it existed. */
  storyImage: string | null;
  /** The laying plan's URL (API base + plan_path): the artwork's tesserae in laying order, for the reveal and the clip. */
  layingPlan: string | null;
  /** The job's artwork has been shown (laid before the visitor's eyes, or at once): it is not laid again. */
  artworkRevealed: boolean;
  isUploading: boolean;
  isProcessing: boolean;
  /** A message key of MESSAGES or a server's message, shown translated where possible. */
  error: string | null;
  serverLoadDetected: boolean;
  /**
   * The hand-off this visit takes part in (desktop → phone). On a phone that opened a desktop's code
   * (role `phone`): its upload carries it, so the desktop follows. On a desktop (role `desktop`): the
   * code it offers, kept once the phone's photo arrived, so its result screen knows the artwork is on
   * the phone already.
   */
  handoffId: string | null;
  /** Which side of a hand-off this browser is; a phone stays one after its photo, so it never offers a code itself. */
  handoffRole: HandoffRole | null;
}

export type HandoffRole = 'desktop' | 'phone';

/** The fields of the saved copy (docs/product.md#session); the rest lives only as long as the page. */
const PERSISTED_FIELDS = [
  'userSessionId',
  'questionAnswer',
  'consentGiven',
  'currentCountry',
  'currentLanguage',
  'currentJobId',
  'processedImage',
  'storyImage',
  'layingPlan',
  'artworkRevealed',
  'isProcessing',
  'handoffId',
  'handoffRole',
] as const satisfies readonly (keyof Session)[];

type PersistedSession = Pick<Session, (typeof PERSISTED_FIELDS)[number]> & { lastUpdated: number };

export interface SessionStoreOptions {
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  now?: () => number;
  createId?: () => string;
}

export interface SessionStore {
  getState(): Session;
  subscribe(listener: () => void): () => void;
  update(patch: Partial<Session>): void;
  /** Clears everything, storage included, and starts a new session id. */
  reset(): void;
  /** Forgets the photo, its job and its hand-off but keeps the session, the answer and the consent. */
  clearPhotoData(): void;
}

function freshSession(id: string): Session {
  return {
    userSessionId: id,
    questionAnswer: null,
    consentGiven: false,
    currentCountry: null,
    currentLanguage: null,
    currentJobId: null,
    queueStatus: null,
    processedImage: null,
    storyImage: null,
    layingPlan: null,
    artworkRevealed: false,
    isUploading: false,
    isProcessing: false,
    error: null,
    serverLoadDetected: false,
    handoffId: null,
    handoffRole: null,
  };
}

function isPersistedSession(value: unknown): value is PersistedSession {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.userSessionId === 'string' &&
    typeof record.lastUpdated === 'number' &&
    typeof record.consentGiven === 'boolean' &&
    typeof record.isProcessing === 'boolean'
  );
}

function safeStorage(): SessionStoreOptions['storage'] {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can throw in private modes and sandboxed frames; the session then lives in memory only.
    return null;
  }
}

export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const storage = options.storage === undefined ? safeStorage() : options.storage;
  const now = options.now ?? Date.now;
  const createId = options.createId ?? (() => createSessionId(now()));
  const listeners = new Set<() => void>();

  function load(): Session {
    const raw = read();
    if (raw === null) return freshSession(createId());
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = null;
    }
    if (!isPersistedSession(parsed) || now() - parsed.lastUpdated > SESSION_TTL_MS) {
      remove();
      return freshSession(createId());
    }
    const session = freshSession(parsed.userSessionId);
    for (const field of PERSISTED_FIELDS) {
      if (field in parsed) Object.assign(session, { [field]: parsed[field] });
    }
    return session;
  }

  function read(): string | null {
    try {
      return storage?.getItem(SESSION_STORAGE_KEY) ?? null;
    } catch {
      return null;
    }
  }

  function remove(): void {
    try {
      storage?.removeItem(SESSION_STORAGE_KEY);
    } catch {
      // Nothing saved can be removed: the in-memory session is already fresh.
    }
  }

  function save(session: Session): void {
    const copy = Object.fromEntries(PERSISTED_FIELDS.map((field) => [field, session[field]]));
    try {
      storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...copy, lastUpdated: now() }));
    } catch {
      // A full or blocked storage only costs the resume-after-reload; the page keeps working.
    }
  }

  let state = load();

  function emit(): void {
    for (const listener of listeners) listener();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(patch) {
      state = { ...state, ...patch };
      save(state);
      emit();
    },
    reset() {
      remove();
      state = freshSession(createId());
      emit();
    },
    clearPhotoData() {
      state = {
        ...freshSession(state.userSessionId),
        questionAnswer: state.questionAnswer,
        consentGiven: state.consentGiven,
        currentCountry: state.currentCountry,
        currentLanguage: state.currentLanguage,
        // The next photo is a new job: a desktop follows no phone for it, and a phone's code was used.
        handoffRole: state.handoffRole === 'phone' ? 'phone' : null,
      };
      save(state);
      emit();
    },
  };
}
