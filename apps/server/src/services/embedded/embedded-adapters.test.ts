import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeHandoffContract } from '../../test/handoff-contract.js';
import { describeLedgerContract } from '../../test/ledger-contract.js';
import { describeOperatorsContract } from '../../test/operators-contract.js';
import { describeQueueContract } from '../../test/queue-contract.js';
import { describeStoreContract } from '../../test/store-contract.js';
import { openSqlite, type SqliteConnection } from '../sql/connect.js';
import { SqlHandoffStore } from '../sql/handoff-store.js';
import { SqlAnalyticsEventStore, SqlOperatorQueries } from '../sql/operator-store.js';
import { SqlJobLedger } from '../sql/sql-ledger.js';
import { SqlConsentStore, SqlJobStore, SqlPageviewStore } from '../sql/sql-store.js';
import { SqliteJobQueue } from './sqlite-queue.js';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-embedded-'));
}

describeStoreContract('SQLite', async () => {
  const dir = tempDir();
  const { db } = await openSqlite(dir);
  return {
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    ledger: new SqlJobLedger(db),
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeLedgerContract('SQLite', async () => {
  const dir = tempDir();
  const { db } = await openSqlite(dir);
  return {
    ledger: new SqlJobLedger(db),
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    operators: new SqlOperatorQueries(db),
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeOperatorsContract('SQLite', async (now) => {
  const dir = tempDir();
  const { db } = await openSqlite(dir);
  return {
    consents: new SqlConsentStore(db),
    pageviews: new SqlPageviewStore(db),
    analytics: new SqlAnalyticsEventStore(db),
    jobs: new SqlJobStore(db),
    ledger: new SqlJobLedger(db, now),
    operators: new SqlOperatorQueries(db),
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeHandoffContract('SQLite', async () => {
  const dir = tempDir();
  const { db } = await openSqlite(dir);
  return {
    handoffs: new SqlHandoffStore(db),
    consents: new SqlConsentStore(db),
    ledger: new SqlJobLedger(db),
    row: (id) => db.selectFrom('handoffs').selectAll().where('id', '=', id).executeTakeFirst(),
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeQueueContract('embedded (SQLite)', async () => {
  const dir = tempDir();
  const opened = [await openSqlite(dir)];
  const queues = [new SqliteJobQueue(opened[0]?.sqlite as SqliteConnection)];
  return {
    queue: queues[0] as SqliteJobQueue,
    recoversOnReopen: true,
    async reopen() {
      // The old instance stays as it is, possibly mid-delivery, like a process that died.
      const next = await openSqlite(dir);
      opened.push(next);
      const queue = new SqliteJobQueue(next.sqlite);
      queues.push(queue);
      return queue;
    },
    async close() {
      // Only the last queue is live; earlier ones may hold a delivery that never ends (a dead process).
      await queues.at(-1)?.close();
      for (const { db } of opened) await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
