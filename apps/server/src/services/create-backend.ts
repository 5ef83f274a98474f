import { openDatabase } from './embedded/database.js';
import { DiskStorage } from './embedded/disk-storage.js';
import { MemoryStatusEvents } from './embedded/memory-events.js';
import { SqliteJobQueue } from './embedded/sqlite-queue.js';
import { SqliteConsentStore, SqliteJobStore, SqlitePageviewStore } from './embedded/sqlite-store.js';
import type { Backend } from './types.js';

export interface BackendOptions {
  dataDir: string;
}

/**
 * Picks the adapters. Embedded mode (SQLite, in-process queue, local files) is the only one so far;
 * scale mode adds a branch here for REDIS_URL/DATABASE_URL.
 */
export async function createBackend(options: BackendOptions): Promise<Backend> {
  const db = openDatabase(options.dataDir);
  const storage = new DiskStorage(options.dataDir);
  await storage.init();
  const events = new MemoryStatusEvents();
  return {
    jobs: new SqliteJobStore(db),
    consents: new SqliteConsentStore(db),
    pageviews: new SqlitePageviewStore(db),
    queue: new SqliteJobQueue(db),
    events,
    storage,
    async close() {
      await events.close();
      db.close();
    },
  };
}
