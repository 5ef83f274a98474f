import type { Readable } from 'node:stream';
import type { AnalyticsEvent, FunnelStep, HandoffState, JobStatus, RefusalCode } from '@selfie-mosaic/contract';
import type { ResultFile } from './storage-names.js';

/**
 * The seams of the backend. Embedded adapters (SQLite, in-process queue, local files, in-memory events)
 * and scale adapters (PostgreSQL, BullMQ on Redis, shared directory or S3, Redis pub/sub) implement them;
 * the same contract suites (src/test/*-contract.ts) run against both sets.
 */

export interface JobRecord {
  id: string;
  sessionId: string;
  blacklabel: boolean;
  status: JobStatus;
  /** Render attempts started so far. */
  attempts: number;
  errorMessage: string | null;
  errorCode: RefusalCode | null;
  /** Storage key of the uploaded photo; null once it is deleted (the job ended). */
  photoKey: string | null;
  /** Random 128-bit token naming the artwork file; null until completed. */
  resultToken: string | null;
  width: number | null;
  height: number | null;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** When the row and its artwork are swept; null while the job is active. */
  expiresAt: number | null;
}

export interface NewJob {
  id: string;
  sessionId: string;
  blacklabel: boolean;
  photoKey: string;
}

/** The job store's reads; every write goes through the `JobLedger`. */
export interface JobStore {
  get(id: string): Promise<JobRecord | undefined>;
  /** The stored jobs among these ids (storage reconciliation: a photo is named by its job id). */
  getMany(ids: readonly string[]): Promise<JobRecord[]>;
  /** Which of these artwork tokens a stored job holds (storage reconciliation). */
  heldResultTokens(tokens: readonly string[]): Promise<Set<string>>;
  /** A real, committed write of one row kept for it: whether the database takes writes (health probe). */
  probeWrite(): Promise<void>;
  /** Ids of jobs in a status, oldest first (restart recovery). */
  idsWithStatus(status: JobStatus): Promise<string[]>;
  /** The completed, unexpired job whose artwork has this token. */
  findByResultToken(token: string, now: number): Promise<JobRecord | undefined>;
  /** Jobs whose retention has run out, at most `limit`. */
  expired(now: number, limit: number): Promise<JobRecord[]>;
  countByStatus(): Promise<Record<JobStatus, number>>;
}

/** A delivery of a job as the ledger records it: the queue's attempt number and an id of its own. */
export interface Delivery {
  attempt: number;
  /** Random per delivery: attempt numbers alone can repeat (a queue that lost its last writes in a crash). */
  id: string;
}

/** A finished render: its artwork's token and size, when it expires, and how long the render took. */
export interface JobResult {
  token: string;
  width: number;
  height: number;
  expiresAt: number;
  renderMs: number | null;
}

/** Why a job ended without an artwork, when it expires, and how long its last render ran (if one did). */
export interface JobFailure {
  message: string;
  code: RefusalCode | null;
  expiresAt: number;
  renderMs: number | null;
}

/**
 * A job's life, one transition at a time. Each transition is one transaction over the job's row, its
 * history (the lasting record: docs/architecture.md#operators) and the funnel counters, so it happened
 * entirely or not at all, whatever fails. A transition that does not apply to the job as it stands (an
 * earlier delivery's late write, a repeated one) changes nothing and returns undefined; otherwise it
 * returns the event to publish.
 */
export interface JobLedger {
  /** Stores an accepted upload as `pending`, its history under the consent it was made under, counted. */
  accepted(job: NewJob, consent: ConsentRecord): Promise<JobRecord>;
  /** Takes back `accepted` for an upload refused after it: no row, no history, not counted. */
  withdrawn(jobId: string): Promise<void>;
  /** pending → queued. */
  queued(jobId: string): Promise<JobEvent | undefined>;
  /**
   * queued → processing in `delivery`; also processing → processing: the queue hands a job out once at a
   * time, so a new delivery of a job in processing means the earlier one was given up for dead.
   */
  started(jobId: string, delivery: Delivery): Promise<JobEvent | undefined>;
  /** processing → queued: the delivery `deliveryId` (if given) failed, or the worker holding it died. */
  requeued(jobId: string, deliveryId?: string): Promise<JobEvent | undefined>;
  /** processing in `deliveryId` → completed with its artwork; its end recorded and counted. */
  completed(jobId: string, deliveryId: string, result: JobResult): Promise<JobEvent | undefined>;
  /** → failed, from processing in `deliveryId` if given, else from any status a job is alive in; its end recorded. */
  failed(jobId: string, failure: JobFailure, deliveryId?: string): Promise<JobEvent | undefined>;
  /** The jobs' photos are gone from storage: recorded once, with when. */
  photoDeleted(jobIds: readonly string[], at: number): Promise<void>;
  /** Retention ran out and the jobs' files are gone: the rows go, the history keeps when their files went. */
  expired(jobs: readonly JobRecord[], at: number): Promise<void>;
}

export interface ConsentInput {
  sessionId: string | null;
  countryIso: string;
  language: string;
  questionAnswer: 'yes' | 'no';
  consentGiven: boolean;
}

export interface ConsentRecord extends ConsentInput {
  id: string;
  createdAt: string;
  /** When a phone first took the visit over under this consent (desktop → phone hand-off); null: never. */
  handedOffAt: string | null;
}

/** Consent records are proof for a regulator: they are never swept and hold no IP address. */
export interface ConsentStore {
  add(consent: ConsentInput): Promise<ConsentRecord>;
  /** The session's latest affirmative consent (adult user, terms accepted): the one an upload is made under. */
  coveringConsent(sessionId: string): Promise<ConsentRecord | undefined>;
}

/** A hand-off's state as stored: `expired` is never stored, it is read from the times (`handoffStatus`). */
export type StoredHandoffState = Exclude<HandoffState, 'expired'>;

/** A desktop → phone hand-off as the store keeps it; its token is not part of it (only its hash is stored). */
export interface HandoffRecord {
  id: string;
  sessionId: string;
  /** The desktop's consent, which the phone continues under. */
  consentId: string;
  /** The session's completed job whose artwork the phone opens instead of taking a photo. */
  artworkJobId: string | null;
  state: StoredHandoffState;
  /** The phone's job once its photo was accepted (`submitted`). */
  jobId: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The code works until then, once. */
  claimExpiresAt: number;
  /** The desktop can follow the hand-off until then; the sweep removes it after. */
  followExpiresAt: number;
}

export interface NewHandoff {
  id: string;
  /** The code's token: the store keeps only its hash. */
  token: string;
  sessionId: string;
  consentId: string;
  artworkJobId: string | null;
  createdAt: number;
  claimExpiresAt: number;
  followExpiresAt: number;
}

/** The phone's hand-off: what it continues (the desktop's session, under its consent). */
export interface HandoffClaim {
  handoff: HandoffRecord;
  consent: ConsentRecord;
}

/**
 * Desktop → phone hand-offs. Every write is one conditional statement (or transaction): two phones racing
 * with one code cannot both claim it, and a write that does not apply to the hand-off as it stands
 * changes nothing and returns undefined. Nothing of the desktop (address, browser) is stored.
 */
export interface HandoffStore {
  /**
   * Stores a hand-off waiting for its code. With an artwork job: undefined (nothing stored) unless that job
   * is the session's, completed and unexpired at `createdAt`.
   */
  create(handoff: NewHandoff): Promise<HandoffRecord | undefined>;
  /**
   * Uses the code: a waiting hand-off whose token this is and whose code has not run out at `now` becomes
   * `connected`, its token is deleted for good, its follow window starts afresh (`followMs`) and its
   * consent records the hand-off (the first time it was handed off). Undefined for a used, expired or
   * unknown token alike.
   */
  claim(token: string, now: number, followMs: number): Promise<HandoffClaim | undefined>;
  get(id: string): Promise<HandoffRecord | undefined>;
  /** The phone's progress, connected ↔ uploading: only by the hand-off's own session, from those states, while followed. */
  progress(
    id: string,
    sessionId: string,
    state: 'connected' | 'uploading',
    now: number,
  ): Promise<HandoffRecord | undefined>;
  /** The phone's photo became `jobId`: `submitted`, on the same conditions as `progress`. */
  submitted(id: string, sessionId: string, jobId: string, now: number): Promise<HandoffRecord | undefined>;
  /**
   * Deletes hand-offs whose follow window has ended and the tokens of codes that ran out unused (the rows
   * stay, reading `expired`, until their follow window ends). Returns how many rows it deleted or changed.
   */
  sweep(now: number): Promise<number>;
}

export interface PageviewInput {
  countryIso: string;
  language: string;
  pagePath: string;
  /** Browser family only (e.g. "Chrome"), never the full user agent. */
  browserFamily: string;
}

export interface PageviewStore {
  add(pageview: PageviewInput): Promise<void>;
}

export interface AnalyticsEventInput {
  event: AnalyticsEvent;
  countryIso: string;
  language: string;
  /** Browser family only, as for page views. */
  browserFamily: string;
}

export interface AnalyticsEventStore {
  add(event: AnalyticsEventInput): Promise<void>;
}

export type JobOutcome = 'completed' | 'failed';

/**
 * The durable record of each job (docs/architecture.md#operators), kept after the job row is swept: the
 * consent it was made under, its outcome, and when its photo and artwork were deleted, written by the
 * ledger as it happens. Its end and deletion times are set once: the first is the one that counts.
 */
export interface JobHistoryRecord {
  jobId: string;
  consentId: string | null;
  uploadedAt: number;
  endedAt: number | null;
  outcome: JobOutcome | null;
  errorCode: RefusalCode | null;
  renderMs: number | null;
  photoDeletedAt: number | null;
  artworkDeletedAt: number | null;
}

/** One finished render: when it ended and how long the worker spent on it, epoch ms and ms. */
export interface RecentRender {
  endedAt: number;
  renderMs: number;
}

export interface FunnelCount {
  day: string;
  countryIso: string;
  language: string;
  step: FunnelStep;
  n: number;
}

/** Where a batch of the export ends: the next batch starts after it. */
export interface ConsentCursor {
  createdAt: string;
  id: string;
}

/** The dashboard's and the export's reads. */
export interface OperatorQueries {
  /** Jobs ended at or after `since` (the live window). */
  endedSince(since: number): Promise<Pick<JobHistoryRecord, 'outcome' | 'errorCode' | 'renderMs'>[]>;
  /**
   * The latest `limit` rendered jobs (a render time recorded) ended at or after `since`, newest first, from
   * every worker process: the queue's measured throughput (docs/architecture.md#queue-time-estimate).
   */
  recentRenders(since: number, limit: number): Promise<RecentRender[]>;
  /** Funnel counters of the days `fromDay`…`toDay` (both included). */
  funnelCounts(fromDay: string, toDay: string): Promise<FunnelCount[]>;
  /** Up to `limit` consents created in [from, to) after `after`, in (created_at, id) order. */
  consentsPage(
    range: { from: string; to: string },
    after: ConsentCursor | undefined,
    limit: number,
  ): Promise<ConsentRecord[]>;
  /** The jobs these consents covered, oldest upload first. */
  jobsOfConsents(consentIds: readonly string[]): Promise<JobHistoryRecord[]>;
}

/** One delivery of a queued job to a handler. `attempt` counts deliveries, 1-based, across restarts. */
export interface QueueDelivery {
  jobId: string;
  attempt: number;
}

/**
 * Resolve when the job is finished (whatever its outcome); throw to put it back at the head of the queue
 * for another attempt. A delivery whose process or thread died is redelivered with `attempt + 1`.
 */
export type QueueHandler = (delivery: QueueDelivery) => Promise<void>;

export interface QueueCounts {
  waiting: number;
  active: number;
}

export type QueueReservation = () => Promise<void>;

/** FIFO job queue. Only ids travel through it; the job's data lives in the JobStore. */
export interface JobQueue {
  add(jobId: string): Promise<void>;
  /** 1 + the number of jobs ahead while waiting; 0 when active or not in the queue. */
  position(jobId: string): Promise<number>;
  /** `position` of many jobs in one call (stream fan-out after the queue moved), in the same order. */
  positions(jobIds: readonly string[]): Promise<number[]>;
  counts(): Promise<QueueCounts>;
  /** Resolves once the queue's store answers; rejects at once while it cannot be reached (readiness). */
  ping(): Promise<void>;
  /**
   * Takes one of `limit` waiting places for a job about to be added, counted together with the waiting
   * jobs in one atomic step (across processes in scale mode), so parallel uploads never pass the limit
   * however long their checks take. Undefined when the queue is full. Call the returned release once the
   * job is added (it then counts as waiting) or its upload failed; releasing twice is harmless.
   */
  reserve(limit: number): Promise<QueueReservation | undefined>;
  /**
   * Puts back to waiting the jobs whose delivery a previous process left unfinished, and returns their
   * ids. Embedded: all at once at start. BullMQ: its stalled-job check does this continuously once the
   * dead worker's lock expires, so `recover` returns [] and `onRecovered` reports each job later.
   */
  recover(): Promise<string[]>;
  /** Called for each job put back to waiting after its worker died (by `recover` or, in scale mode, later). */
  onRecovered(listener: (jobId: string) => void): void;
  /** Starts handing jobs to `handler`, at most `concurrency` at once. */
  process(handler: QueueHandler, options: { concurrency: number }): void;
  /** Stops taking jobs and waits for the running handlers to settle. */
  close(): Promise<void>;
}

/** What a client sees of a job: the stream's `data:` payload and the poll's body. */
export interface JobEvent {
  jobId: string;
  status: JobStatus;
  errorMessage: string | null;
  errorCode: RefusalCode | null;
}

/** What a desktop following a hand-off is told of a change: everything its stream message needs. */
export interface HandoffEvent {
  handoffId: string;
  state: StoredHandoffState;
  jobId: string | null;
  /** Epoch milliseconds: the end of the code's window while waiting, else of the follow window. */
  expiresAt: number;
}

/** Status changes fanned out to event streams (in-process in embedded mode, Redis pub/sub in scale mode). */
export interface StatusEvents {
  publish(event: JobEvent): void;
  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void;
  /** Queue positions moved (a job started or went back to the queue). */
  publishQueueMoved(): void;
  onQueueMoved(listener: () => void): () => void;
  /** A hand-off changed state (claimed, the phone uploading, its photo submitted). */
  publishHandoff(event: HandoffEvent): void;
  subscribeHandoff(handoffId: string, listener: (event: HandoffEvent) => void): () => void;
  /** Resolves once this process receives what is published (scale: its Redis subscription is live). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface StoredFile {
  stream: Readable;
  size: number;
}

/** A stored photo (key) or artwork (token) and when it was written, epoch milliseconds. */
export interface StoredEntry {
  key: string;
  modifiedAt: number;
}

/**
 * Uploaded photos and finished artworks. A write is all or nothing: a failed or interrupted one leaves
 * at most a partial file under a temporary name that `removePartials` deletes, never a photo or artwork.
 */
export interface FileStorage {
  /** Stores the photo under its job id (the key it returns). */
  savePhoto(jobId: string, bytes: Buffer): Promise<string>;
  readPhoto(key: string): Promise<Buffer>;
  deletePhoto(key: string): Promise<void>;
  /**
   * Stores an artwork (the 4:5 and, when given, its story version and laying plan) under a fresh random
   * 128-bit token and returns the token. A failed write leaves no file of the token behind.
   */
  saveResult(post: Buffer, story?: Buffer, plan?: Buffer): Promise<string>;
  openResult(token: string, file?: ResultFile): Promise<StoredFile | undefined>;
  /** Deletes every file of the artwork: when it resolves, none is left. */
  deleteResult(token: string): Promise<void>;
  /** Stored photo keys, a page at a time (reconciliation with the job records). */
  listPhotos(): AsyncIterable<StoredEntry[]>;
  /** Stored artwork tokens, a page at a time (a token whose two files both remain may appear twice). */
  listResults(): AsyncIterable<StoredEntry[]>;
  /** Deletes partial writes started before `before` (a crash mid-write); returns how many. */
  removePartials(before: number): Promise<number>;
  /** Writes and deletes a small file: whether storage takes writes (storage health probe). */
  probe(): Promise<void>;
}

/** Everything the routes and the job runner need, built by `createBackend`. */
export interface Backend {
  jobs: JobStore;
  consents: ConsentStore;
  handoffs: HandoffStore;
  pageviews: PageviewStore;
  analytics: AnalyticsEventStore;
  ledger: JobLedger;
  operators: OperatorQueries;
  queue: JobQueue;
  events: StatusEvents;
  storage: FileStorage;
  /** Resolves once the database and the queue answer; rejects within seconds while either is away. */
  ping(): Promise<void>;
  /**
   * Leaves no readable trace of deleted records in the database's files (after a retention sweep).
   * SQLite: zeroed pages (secure_delete) folded in from the write-ahead log, which is then emptied.
   */
  scrub(): Promise<void>;
  /** Closes connections and handles; call after the queue has been closed. */
  close(): Promise<void>;
}
