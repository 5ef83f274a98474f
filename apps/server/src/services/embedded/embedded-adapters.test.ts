import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeQueueContract } from '../../test/queue-contract.js';
import { describeStoreContract } from '../../test/store-contract.js';
import { type Db, openDatabase } from './database.js';
import { SqliteJobQueue } from './sqlite-queue.js';
import { SqliteConsentStore, SqliteJobStore } from './sqlite-store.js';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-embedded-'));
}

describeStoreContract('SQLite', async () => {
  const dir = tempDir();
  const db = openDatabase(dir);
  return {
    jobs: new SqliteJobStore(db),
    consents: new SqliteConsentStore(db),
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeQueueContract('embedded (SQLite)', async () => {
  const dir = tempDir();
  const connections: Db[] = [openDatabase(dir)];
  const queues = [new SqliteJobQueue(connections[0] as Db)];
  return {
    queue: queues[0] as SqliteJobQueue,
    async reopen() {
      const db = openDatabase(dir);
      connections.push(db);
      const queue = new SqliteJobQueue(db);
      queues.push(queue);
      return queue;
    },
    async close() {
      // Only the last queue is live; earlier ones may hold a delivery that never ends (a dead process).
      await queues.at(-1)?.close();
      for (const db of connections) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
