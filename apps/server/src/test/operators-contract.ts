import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AnalyticsEventStore,
  ConsentRecord,
  ConsentStore,
  FunnelCount,
  JobLedger,
  JobResult,
  JobStore,
  OperatorQueries,
  PageviewStore,
} from '../services/types.js';

export interface OperatorStoresUnderTest {
  consents: ConsentStore;
  pageviews: PageviewStore;
  analytics: AnalyticsEventStore;
  jobs: JobStore;
  /** Built on the clock the factory is given: the suite sets when each transition happens. */
  ledger: JobLedger;
  operators: OperatorQueries;
  close(): Promise<void>;
}

const DAY = '2025-01-10';
const NEXT_DAY = '2025-01-11';
const at = (time: string) => Date.parse(`${time}Z`);
const today = () => new Date().toISOString().slice(0, 10);
const HOUR = 60 * 60 * 1000;

/** Counters as `day market/locale step: n`, sorted, for exact comparisons. */
const listed = (counts: FunnelCount[]) =>
  counts.map((c) => `${c.day} ${c.countryIso}/${c.language} ${c.step}: ${c.n}`).sort();

const artwork = (renderMs: number | null): JobResult => ({
  token: randomUUID().replaceAll('-', ''),
  width: 1,
  height: 1,
  expiresAt: Date.now() + HOUR,
  renderMs,
});

/**
 * What the dashboard and the regulator export rely on, for every database: the job history and deletion
 * log and the funnel counters the ledger and the recording stores keep, and the export's walk over
 * consents. The factory builds the ledger on the clock it is given.
 */
export function describeOperatorsContract(
  name: string,
  factory: (now: () => number) => Promise<OperatorStoresUnderTest>,
): void {
  describe(`operators' stores: ${name}`, () => {
    let stores: OperatorStoresUnderTest;
    let time = Date.now();
    beforeEach(async () => {
      time = Date.now();
      stores = await factory(() => time);
    });
    afterEach(async () => {
      await stores.close();
    });

    const consent = (countryIso = 'de', language = 'de') =>
      stores.consents.add({ sessionId: null, countryIso, language, questionAnswer: 'yes', consentGiven: true });
    /** A job's upload accepted under `covering` at `uploadedAt`. */
    const accepted = async (covering: ConsentRecord, uploadedAt: number) => {
      const id = randomUUID();
      time = uploadedAt;
      const job = { id, sessionId: 'session-1700000000000-abcd1234', blacklabel: false, photoKey: id };
      await stores.ledger.accepted(job, covering);
      return id;
    };
    /** The same, then queued and started by its first delivery. */
    const started = async (covering: ConsentRecord, uploadedAt: number) => {
      const id = await accepted(covering, uploadedAt);
      await stores.ledger.queued(id);
      await stores.ledger.started(id, { attempt: 1, id: 'delivery-1' });
      return id;
    };

    it("keeps a job's history from upload to the deletion of its files, each time set once", async () => {
      const { ledger, operators } = stores;
      const covering = await consent();
      const job = await started(covering, at(`${DAY}T10:00:00`));
      time = at(`${DAY}T10:00:05`);
      await ledger.completed(job, 'delivery-1', artwork(1234));
      // A redelivered job that ends again, and deletions repeated by the sweep, change nothing.
      time = at(`${DAY}T10:09:00`);
      const refusal = { message: 'No face', code: 'no_face', expiresAt: time + HOUR, renderMs: 9 } as const;
      await ledger.failed(job, refusal);
      await ledger.photoDeleted([job], at(`${DAY}T10:00:06`));
      await ledger.photoDeleted([job], at(`${DAY}T11:00:00`));
      const ended = await stores.jobs.get(job);
      await ledger.expired(ended ? [ended] : [], at(`${NEXT_DAY}T10:00:06`));
      expect(await operators.jobsOfConsents([covering.id, randomUUID()])).toEqual([
        {
          jobId: job,
          consentId: covering.id,
          uploadedAt: at(`${DAY}T10:00:00`),
          endedAt: at(`${DAY}T10:00:05`),
          outcome: 'completed',
          errorCode: null,
          renderMs: 1234,
          photoDeletedAt: at(`${DAY}T10:00:06`),
          artworkDeletedAt: at(`${NEXT_DAY}T10:00:06`),
        },
      ]);
      expect(await operators.endedSince(at(`${DAY}T10:00:05`))).toEqual([
        { outcome: 'completed', errorCode: null, renderMs: 1234 },
      ]);
      expect(await operators.endedSince(at(`${DAY}T10:00:06`))).toEqual([]);
    });

    it('lists the latest renders of every worker, newest first, without jobs that never rendered', async () => {
      const { ledger, operators } = stores;
      const covering = await consent();
      const ends = [
        { renderMs: 900, at: at('2031-03-01T10:00:01') },
        { renderMs: 1100, at: at('2031-03-01T10:00:03') },
        { renderMs: null, at: at('2031-03-01T10:00:04') },
        { renderMs: 1000, at: at('2031-03-01T10:00:02') },
      ];
      for (const end of ends) {
        const job = await started(covering, at('2031-03-01T09:59:00'));
        time = end.at;
        await ledger.completed(job, 'delivery-1', artwork(end.renderMs));
      }
      expect(await operators.recentRenders(at('2031-03-01T10:00:00'), 2)).toEqual([
        { endedAt: at('2031-03-01T10:00:03'), renderMs: 1100 },
        { endedAt: at('2031-03-01T10:00:02'), renderMs: 1000 },
      ]);
      expect(await operators.recentRenders(at('2031-03-01T10:00:02'), 10)).toHaveLength(2);
    });

    it("counts uploads and artworks in the consent's market and locale, and takes back a refused upload", async () => {
      const { ledger, operators } = stores;
      const french = await consent('ch', 'fr');
      const kept = await started(french, at(`${DAY}T23:59:00`));
      const refused = await accepted(french, at(`${DAY}T23:59:00`));
      const failed = await started(french, at(`${DAY}T23:59:00`));
      await ledger.withdrawn(refused);
      time = at(`${NEXT_DAY}T00:00:01`);
      const result = artwork(3000);
      await ledger.completed(kept, 'delivery-1', result);
      await ledger.completed(kept, 'delivery-1', result);
      await ledger.failed(
        failed,
        { message: 'Too dark', code: 'too_dark', expiresAt: time + HOUR, renderMs: 3000 },
        'delivery-1',
      );
      expect(listed(await operators.funnelCounts(DAY, NEXT_DAY))).toEqual([
        `${DAY} ch/fr uploads: 2`,
        `${NEXT_DAY} ch/fr artworks: 1`,
      ]);
      expect(listed(await operators.funnelCounts(NEXT_DAY, NEXT_DAY))).toEqual([`${NEXT_DAY} ch/fr artworks: 1`]);
      expect(await operators.jobsOfConsents([french.id])).toHaveLength(2);
    });

    it('counts page views of funnel screens, answers, consents, downloads and shares as they are recorded', async () => {
      const { consents, pageviews, analytics, operators } = stores;
      const view = (pagePath: string) =>
        pageviews.add({ countryIso: 'de', language: 'de', pagePath, browserFamily: 'Chrome' });
      for (const page of ['/de/de/start', '/de/de/start', '/de/de/curious', '/de/de/photo', '/de/de/terms', '/'])
        await view(page);
      await consents.add({
        sessionId: null,
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'no',
        consentGiven: false,
      });
      await consents.add({
        sessionId: null,
        countryIso: 'de',
        language: 'de',
        questionAnswer: 'yes',
        consentGiven: false,
      });
      await consent();
      await analytics.add({ event: 'download', countryIso: 'de', language: 'de', browserFamily: 'Safari' });
      await analytics.add({ event: 'share', countryIso: 'gb', language: 'en', browserFamily: 'Safari' });
      const day = today();
      expect(listed(await operators.funnelCounts(day, day))).toEqual(
        [
          'de/de answered_no: 1',
          'de/de answered_yes: 1',
          'de/de consented: 1',
          'de/de downloads: 1',
          'de/de photo_views: 1',
          'de/de start_views: 2',
          'gb/en shares: 1',
        ].map((line) => `${day} ${line}`),
      );
    });

    it('walks the consents of a range in (time, id) order, a page at a time, each once', async () => {
      const { operators } = stores;
      const added: ConsentRecord[] = [];
      for (let i = 0; i < 7; i++) added.push(await consent());
      const expected = added
        .sort((a, b) => (`${a.createdAt} ${a.id}` < `${b.createdAt} ${b.id}` ? -1 : 1))
        .map((record) => record.id);
      const range = { from: `${today()}T00:00:00.000Z`, to: '9999-12-31T00:00:00.000Z' };
      const walked: string[] = [];
      let after: { createdAt: string; id: string } | undefined;
      for (;;) {
        const page = await operators.consentsPage(range, after, 3);
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(3);
        walked.push(...page.map((record) => record.id));
        const last = page.at(-1) as { createdAt: string; id: string };
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(walked).toEqual(expected);
      expect(await operators.consentsPage({ from: '2000-01-01T00:00:00.000Z', to: range.from }, undefined, 3)).toEqual(
        [],
      );
    });
  });
}
