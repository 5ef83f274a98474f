import { ApiError } from '@selfie-mosaic/contract';
import type { FastifyBaseLogger } from 'fastify';

/** The catalogue codes a failing write is answered with: no space left, or storage refusing writes. */
export type StorageFault = 'storageFull' | 'notReady';

/** Errors that say "no space": the filesystem, a quota, SQLite, PostgreSQL (disk_full). */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);
/** Errors that say "cannot write now": read-only filesystem or database, a lock held too long, I/O errors. */
const UNAVAILABLE_CODES = new Set(['EROFS', 'EIO', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_IOERR']);
// PostgreSQL: read-only transaction (a hot standby), cannot connect now (recovery), out of memory/resources.
const PG_UNAVAILABLE = new Set(['25006', '57P03', '53000', '53200']);

/**
 * Whether an error is the storage failing under us (disk full, read-only, locked) rather than a bug or bad
 * input. SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED…) count with their base code.
 */
export function storageFault(error: unknown): StorageFault | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
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
    if (!this.fault) this.options.log.error({ err: error, fault }, 'storage refuses writes; probing until it works');
    this.fault = fault;
    this.timer ??= setInterval(() => this.probe(), this.options.probeIntervalMs ?? PROBE_INTERVAL_MS).unref();
    return fault;
  }

  /** Throws the catalogue's error while writes fail, so a request is refused before any slow step. */
  assertWritable(): void {
    if (this.fault) throw new ApiError(this.fault);
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
          this.options.log.info({ fault: this.fault }, 'storage takes writes again');
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
