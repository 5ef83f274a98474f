import { sql } from 'kysely';
import type { StorageConfig } from '../config.js';
import { DiskStorage } from './embedded/disk-storage.js';
import { MemoryStatusEvents } from './embedded/memory-events.js';
import { SqliteJobQueue } from './embedded/sqlite-queue.js';
import { openPostgres, openSqlite } from './sql/connect.js';
import { SqlHandoffStore } from './sql/handoff-store.js';
import { SqlAnalyticsEventStore, SqlOperatorQueries } from './sql/operator-store.js';
import type { Db } from './sql/schema.js';
import { SqlJobLedger } from './sql/sql-ledger.js';
import { SqlConsentStore, SqlJobStore, SqlPageviewStore } from './sql/sql-store.js';
import type { Backend, FileStorage, JobQueue, StatusEvents } from './types.js';

/** The services scale mode depends on, as logs and metrics name them. */
export type Dependency = 'database' | 'redis';

export interface BackendOptions {
  /** Embedded mode's SQLite database lives here. */
  dataDir: string;
  /** Photos and artworks: a directory (default `dataDir`) or an S3 bucket. */
  storage?: StorageConfig;
  /** Scale mode: BullMQ on Redis, PostgreSQL, Redis pub/sub. Unset: embedded. */
  scale?: { redisUrl: string; databaseUrl: string; queueName: string; lockDurationMs: number };
  maxAttempts?: number;
  /** Where adapters report errors they recover from (a connection lost and retried), and which dependency. */
  onError?: (error: Error, dependency: Dependency) => void;
}

/**
 * Picks the adapters: embedded (SQLite, in-process queue, in-memory events) or scale (PostgreSQL,
 * BullMQ, Redis pub/sub); files on a directory or S3 in either mode. Stores share one Kysely query code.
 * The scale adapters' client libraries are imported only when chosen: together they cost an embedded
 * process about 40 MB it would never use.
 */
export async function createBackend(options: BackendOptions): Promise<Backend> {
  const { storage, closeStorage } = await openStorage(options.storage ?? { kind: 'directory', dir: options.dataDir });
  let db: Db;
  let queue: JobQueue;
  let events: StatusEvents;
  let disconnectQueue = async () => {};
  // PostgreSQL reclaims deleted rows itself (autovacuum); SQLite needs telling (see openSqlite).
  let scrub = async () => {};
  if (options.scale) {
    const { redisUrl, databaseUrl, queueName, lockDurationMs } = options.scale;
    const [{ BullJobQueue }, { RedisStatusEvents }] = await Promise.all([
      import('./scale/bull-queue.js'),
      import('./scale/redis-events.js'),
    ]);
    const report = options.onError ?? (() => {});
    const onRedisError = (error: Error) => report(error, 'redis');
    db = await openPostgres(databaseUrl, { onError: (error) => report(error, 'database') });
    const bull = new BullJobQueue({
      redisUrl,
      name: queueName,
      maxAttempts: options.maxAttempts ?? 3,
      lockDurationMs,
      onError: onRedisError,
    });
    queue = bull;
    disconnectQueue = () => bull.disconnect();
    events = new RedisStatusEvents(redisUrl, queueName, onRedisError);
  } else {
    const embedded = await openSqlite(options.dataDir);
    db = embedded.db;
    const onError = options.onError;
    queue = new SqliteJobQueue(embedded.sqlite, onError && ((error) => onError(error, 'database')));
    scrub = async () => {
      embedded.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    };
    events = new MemoryStatusEvents();
  }
  return {
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    handoffs: new SqlHandoffStore(db),
    pageviews: new SqlPageviewStore(db),
    analytics: new SqlAnalyticsEventStore(db),
    ledger: new SqlJobLedger(db),
    operators: new SqlOperatorQueries(db),
    queue,
    events,
    storage,
    scrub,
    async ping() {
      await sql`SELECT 1`.execute(db);
      await queue.ping();
    },
    async close() {
      await events.close();
      await disconnectQueue();
      closeStorage();
      // Closes the SQLite file or the PostgreSQL pool.
      await db.destroy();
    },
  };
}

async function openStorage(config: StorageConfig): Promise<{ storage: FileStorage; closeStorage: () => void }> {
  if (config.kind === 's3') {
    const { S3Storage } = await import('./scale/s3-storage.js');
    const s3 = new S3Storage(config);
    return { storage: s3, closeStorage: () => s3.close() };
  }
  const disk = new DiskStorage(config.dir);
  await disk.init();
  return { storage: disk, closeStorage: () => {} };
}
