import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { describeHandoffContract } from '../../test/handoff-contract.js';
import { describeLedgerContract } from '../../test/ledger-contract.js';
import { describeOperatorsContract } from '../../test/operators-contract.js';
import { describeQueueContract } from '../../test/queue-contract.js';
import { createDatabase } from '../../test/services.js';
import { describeStoreContract } from '../../test/store-contract.js';
import { openPostgres } from '../sql/connect.js';
import { SqlHandoffStore } from '../sql/handoff-store.js';
import { SqlAnalyticsEventStore, SqlOperatorQueries } from '../sql/operator-store.js';
import { SqlJobLedger } from '../sql/sql-ledger.js';
import { SqlConsentStore, SqlJobStore, SqlPageviewStore } from '../sql/sql-store.js';
import { BullJobQueue } from './bull-queue.js';

describeStoreContract('PostgreSQL', async () => {
  const db = await openPostgres(await createDatabase(inject('postgresUrl')), { poolSize: 2 });
  return {
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    ledger: new SqlJobLedger(db),
    close: () => db.destroy(),
  };
});

describeLedgerContract('PostgreSQL', async () => {
  const db = await openPostgres(await createDatabase(inject('postgresUrl')), { poolSize: 2 });
  return {
    ledger: new SqlJobLedger(db),
    jobs: new SqlJobStore(db),
    consents: new SqlConsentStore(db),
    operators: new SqlOperatorQueries(db),
    close: () => db.destroy(),
  };
});

describeOperatorsContract('PostgreSQL', async (now) => {
  const db = await openPostgres(await createDatabase(inject('postgresUrl')), { poolSize: 2 });
  return {
    consents: new SqlConsentStore(db),
    pageviews: new SqlPageviewStore(db),
    analytics: new SqlAnalyticsEventStore(db),
    jobs: new SqlJobStore(db),
    ledger: new SqlJobLedger(db, now),
    operators: new SqlOperatorQueries(db),
    close: () => db.destroy(),
  };
});

describeHandoffContract('PostgreSQL', async () => {
  // Several connections, so claims made at once really run at once.
  const db = await openPostgres(await createDatabase(inject('postgresUrl')), { poolSize: 8 });
  return {
    handoffs: new SqlHandoffStore(db),
    consents: new SqlConsentStore(db),
    ledger: new SqlJobLedger(db),
    row: (id) => db.selectFrom('handoffs').selectAll().where('id', '=', id).executeTakeFirst(),
    close: () => db.destroy(),
  };
});

/** Short locks so a "dead" worker's job comes back within seconds, as it would after 30 s in production. */
const LOCK_MS = 1500;

describeQueueContract('BullMQ (Redis)', async () => {
  const name = `test-${randomUUID()}`;
  const open = () =>
    new BullJobQueue({
      redisUrl: inject('redisUrl'),
      name,
      maxAttempts: 3,
      lockDurationMs: LOCK_MS,
      stalledIntervalMs: 500,
    });
  const queues = [open()];
  return {
    queue: queues[0] as BullJobQueue,
    recoversOnReopen: false,
    redeliveryTimeoutMs: 15_000,
    async reopen() {
      // The old instance dies as a killed process would: it stops renewing its lock without finishing.
      await (queues.at(-1) as BullJobQueue).abandon();
      const queue = open();
      queues.push(queue);
      return queue;
    },
    async close() {
      const last = queues.at(-1) as BullJobQueue;
      await last.close();
      await last.disconnect();
    },
  };
});
