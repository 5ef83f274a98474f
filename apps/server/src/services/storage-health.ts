import { ApiError, type ApiErrorCode } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What is wrong: no space left, storage refusing writes (read-only, locked), or a database or Redis that
 * cannot be reached (refused, lost or timed out connections: a restart, a failover, a network cut).
 */
export type StorageFault = 'storageFull' | 'notReady' | 'unreachable';

/**
 * How each fault is answered and told: the catalogue code of the 503/507 and its `Retry-After`, and the
 * operator's log line. A dependency that went away answers `notReady` (a load balancer drains the
 * instance, clients try again shortly); the English message says which.
 */
export const FAULTS = {
  storageFull: {
    code: 'storageFull',
    retryAfterSeconds: 60,
    message: undefined,
    log: 'storage refuses writes; probing until it works',
    recovered: 'storage takes writes again',
  },
  notReady: {
    code: 'notReady',
    retryAfterSeconds: 10,
    message: undefined,
    log: 'storage refuses writes; probing until it works',
    recovered: 'storage takes writes again',
  },
  unreachable: {
    code: 'notReady',
    retryAfterSeconds: 5,
    message: 'The database or the queue cannot be reached right now',
    log: 'a dependency is unreachable; probing until it answers',
    recovered: 'dependencies answer again',
  },
} as const satisfies Record<
  StorageFault,
  { code: ApiErrorCode; retryAfterSeconds: number; message: string | undefined; log: string; recovered: string }
>;

/** The answer to a request refused because of `fault`: its catalogue error with `Retry-After`. */
export function faultError(fault: StorageFault): ApiError {
  const { code, message, retryAfterSeconds } = FAULTS[fault];
  return new ApiError(code, message, { 'retry-after': String(retryAfterSeconds) });
}

/** Errors that say "no space": the filesystem, a quota, SQLite, PostgreSQL (disk_full). */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);
/** Errors that say "cannot write now": read-only filesystem or database, a lock held too long, I/O errors. */
const UNAVAILABLE_CODES = new Set(['EROFS', 'EIO', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_IOERR']);
// PostgreSQL: read-only transaction (a hot standby), cannot connect now (recovery), out of memory/resources.
const PG_UNAVAILABLE = new Set(['25006', '57P03', '53000', '53200']);
/** A connection refused, cut or timed out: the database, Redis or the object store is away. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// PostgreSQL: connection exceptions (class 08), the server shut down or crashed under its sessions.
const PG_UNREACHABLE = /^(08...|57P01|57P02)$/;
/**
 * The clients' own words for a lost connection, which they throw without a code: node-postgres and its
 * pool (a connection cut mid-query, a connect or query past its timeout, a client broken by an earlier
 * loss) and ioredis (a command on a closed connection, or given up after a reconnect try while Redis is away).
 */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /is not queryable/,
  /^Connection is closed/,
  /max retries per request limit/,
];

/**
 * Whether an error is the storage failing under us (disk full, read-only, locked) rather than a bug or bad
 * input. SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED…) count with their base code.
 */
export function storageFault(error: unknown): StorageFault | undefined {
  if (!error || typeof error !== 'object') return undefined;
  // Node's connect to a name with several addresses fails with all of them at once.
  if (error instanceof AggregateError && error.errors.some((inner) => storageFault(inner) === 'unreachable')) {
    return 'unreachable';
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((words) => words.test(message))) return 'unreachable';
    return undefined;
  }
  if (UNREACHABLE_CODES.has(code) || PG_UNREACHABLE.test(code)) return 'unreachable';
  const base = code.startsWith('SQLITE_') ? code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1') : code;
  if (FULL_CODES.has(base)) return 'storageFull';
  if (UNAVAILABLE_CODES.has(base) || PG_UNAVAILABLE.has(code)) return 'notReady';
  return undefined;
}

/** How often a failing storage is tried again while it refuses writes. */
const PROBE_INTERVAL_MS = 1000;

export interface StorageHealthOptions {
  /** A real write to every place the app writes to (files and records), undone afterwards. */
  probe(): Promise<void>;
  log: FastifyBaseLogger;
  /** Called once writes work again, e.g. to pick up jobs stranded while they did not. */
  onRecovered?: () => void;
  /** Called when a fault begins, e.g. to move event streams, which would miss events now, to polling. */
  onFault?: (fault: StorageFault) => void;
  probeIntervalMs?: number;
}

/**
 * Remembers that writes fail, so uploads are refused at once (507/503) and `/readyz` says not ready, and
 * probes until a write succeeds again: service resumes by itself when space returns. Jobs wait for it
 * instead of burning their attempts on a full disk.
 */
export class StorageHealth {
  private fault: StorageFault | undefined;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: StorageHealthOptions) {}

  /** The current fault, if writes are failing. */
  get current(): StorageFault | undefined {
    return this.fault;
  }

  /** Notes a failed write; returns its fault, or undefined when the error is not the storage failing. */
  report(error: unknown): StorageFault | undefined {
    const fault = storageFault(error);
    if (!fault || this.closed) return fault;
    const began = !this.fault;
    this.fault = fault;
    this.timer ??= setInterval(() => this.probe(), this.options.probeIntervalMs ?? PROBE_INTERVAL_MS).unref();
    if (began) {
      // One line, without a stack: the cause is outside this process, and it repeats while the fault lasts.
      this.options.log.warn({ fault, error: describe(error) }, FAULTS[fault].log);
      this.options.onFault?.(fault);
    }
    return fault;
  }

  /** Whether the app is closing: a wait for writes then ends without them. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Throws the catalogue's error while writes fail, so a request is refused before any slow step. */
  assertWritable(): void {
    if (this.fault) throw faultError(this.fault);
  }

  /** Resolves once writes work (at once when they do) or the app closes. */
  whenWritable(): Promise<void> {
    if (!this.fault || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.settle();
  }

  private probing = false;

  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    this.options
      .probe()
      .then(
        () => {
          if (this.fault) this.options.log.info({ fault: this.fault }, FAULTS[this.fault].recovered);
          this.settle();
          this.options.onRecovered?.();
        },
        (error) => {
          // Still failing (or failing differently: a full disk remounted read-only).
          this.fault = storageFault(error) ?? this.fault;
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private settle(): void {
    this.fault = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** An error as one log field: its code and message, never its stack. */
export function describe(error: unknown): { code?: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? { code, message } : { message };
}
