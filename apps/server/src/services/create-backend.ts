import type { StorageConfig } from '../config.js';
import { DiskStorage } from './embedded/disk-storage.js';
import { MemoryStatusEvents } from './embedded/memory-events.js';
import { SqliteJobQueue } from './embedded/sqlite-queue.js';
import { BullJobQueue } from './scale/bull-queue.js';
import { RedisStatusEvents } from './scale/redis-events.js';
import { S3Storage } from './scale/s3-storage.js';
import { openPostgres, openSqlite } from './sql/connect.js';
import type { Db } from './sql/schema.js';
import { SqlConsentStore, SqlJobStore, SqlPageviewStore } from './sql/sql-store.js';
import type { Backend, FileStorage, JobQueue, StatusEvents } from './types.js';

export interface BackendOptions {
  /** Embedded mode's SQLite database lives here. */
  dataDir: string;
  /** Photos and artworks: a directory (default `dataDir`) or an S3 bucket. */
  storage?: StorageConfig;
  /** Scale mode: BullMQ on Redis, PostgreSQL, Redis pub/sub. Unset: embedded. */
  scale?: { redisUrl: string; databaseUrl: string; queueName: string; lockDurationMs: number };
  maxAttempts?: number;
  /** Where adapters report errors they recover from (Redis hiccups). */
  onError?: (error: Error) => void;
}

/**
 * Picks the adapters: embedded (SQLite, in-process queue, in-memory events) or scale (PostgreSQL,
 * BullMQ, Redis pub/sub); files on a directory or S3 in either mode. Stores share one Kysely query code.
 */
export async function createBackend(options: BackendOptions): Promise<Backend> {
  const storage = await openStorage(options.storage ?? { kind: 'directory', dir: options.dataDir });
  let db: Db;
  let queue: JobQueue;
  let events: StatusEvents;
  if (options.scale) {
    const { redisUrl, databaseUrl, queueName, lockDurationMs } = options.scale;
    db = await openPostgres(databaseUrl);
    const onError = options.onError;
    queue = new BullJobQueue({
      redisUrl,
      name: queueName,
      maxAttempts: options.maxAttempts ?? 3,
      lockDurationMs,
      ...(onError ? { onError } : {}),
    });
    events = new RedisStatusEvents(redisUrl, queueName, onError);
  } else {
    const embedded = await openSqlite(options.dataDir);
    db = embedded.db;
    queue = new SqliteJobQueue(embedded.sqlite);
    events = new MemoryStatusEvents();
  }
  return {
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    pageviews: new SqlPageviewStore(db),
    queue,
    events,
    storage,
    async close() {
      await events.close();
      if (queue instanceof BullJobQueue) await queue.disconnect();
      if (storage instanceof S3Storage) storage.close();
      // Closes the SQLite file or the PostgreSQL pool.
      await db.destroy();
    },
  };
}

async function openStorage(config: StorageConfig): Promise<FileStorage> {
  if (config.kind === 's3') return new S3Storage(config);
  const disk = new DiskStorage(config.dir);
  await disk.init();
  return disk;
}
