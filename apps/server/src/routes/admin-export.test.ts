import {
  ADMIN_PATHS,
  CONSENT_EXPORT_CSV_COLUMNS,
  type ConsentExportRecord,
  consentExportRecordSchema,
  RESULT_TTL_MS,
} from '@selfie-mosaic/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPORT_BATCH } from '../admin/consent-export.js';
import { adminGet, parseCsv, signIn, TEST_ADMIN_TOKEN } from '../test/admin.js';
import { facelessPhoto, facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

const today = () => new Date().toISOString().slice(0, 10);

describe.each(MODES)('regulator export, %s mode', (mode) => {
  let server: TestServer;
  let client: Client;
  let session: string;
  beforeAll(async () => {
    server = await startTestServer({ ...(await modeEnv(mode)), ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    client = await new Client(server.url).init();
    session = await signIn(client);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ndjson = async (from: string, to = from): Promise<ConsentExportRecord[]> => {
    const response = await adminGet(
      client,
      `${ADMIN_PATHS.consentExport}?from=${from}&to=${to}&format=ndjson`,
      session,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="consents-${from}-to-${to}.ndjson"`);
    const text = await response.text();
    expect(text.endsWith('\n') || text === '').toBe(true);
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => consentExportRecordSchema.parse(JSON.parse(line)));
  };

  it('proves each consent, its jobs and when their photo and artwork were deleted, before and after the sweep', async () => {
    const declined = newSessionId();
    expect((await client.consent(declined, { question_answer: 'no', consent_given: false })).status).toBe(201);
    const done = await client.submit(await facePhoto());
    const refusedSession = newSessionId();
    await client.consent(refusedSession, { country_iso: 'FR', language: 'fr' });
    const upload = await client.upload({ user_session_id: refusedSession }, { bytes: await facelessPhoto() });
    const refused = ((await upload.json()) as { job_id: string }).job_id;
    expect((await client.waitUntilFinal(done)).status).toBe('completed');
    expect(await client.waitUntilFinal(refused)).toMatchObject({ status: 'failed', error_code: 'no_face' });

    // The photo is deleted just after the job's end is recorded (a failed delete is left to the sweep).
    const photosGone = async () =>
      (await ndjson(today())).flatMap((record) => record.jobs).every((job) => job.photo_deleted_at !== null);
    await expect.poll(photosGone, { timeout: 10_000 }).toBe(true);
    const ended = await ndjson(today());
    expect(ended.map((record) => [record.question_answer, record.consent_given, record.jobs.length])).toEqual([
      ['no', false, 0],
      ['yes', true, 1],
      ['yes', true, 1],
    ]);
    expect(ended[0]).toMatchObject({ session_id: declined, country_iso: 'de', language: 'de', handed_off_at: null });
    expect(ended[2]).toMatchObject({ session_id: refusedSession, country_iso: 'fr', language: 'fr' });
    const [doneJob, refusedJob] = [ended[1]?.jobs[0], ended[2]?.jobs[0]];
    expect(doneJob).toMatchObject({ job_id: done, artwork_deleted_at: null });
    expect(refusedJob).toMatchObject({ job_id: refused, artwork_deleted_at: null });
    // The photo goes as soon as the job ends, whatever its outcome.
    for (const job of [doneJob, refusedJob]) {
      expect(Date.parse(job?.photo_deleted_at ?? '')).toBeGreaterThanOrEqual(Date.parse(job?.uploaded_at ?? ''));
    }

    const sweptAt = Date.now();
    expect(await server.app.services.sweep(Date.now() + RESULT_TTL_MS + 1000)).toBe(2);
    expect((await client.get(`/api/result/${done}`)).status).toBe(404);
    const swept = await ndjson(today());
    expect(Date.parse(swept[1]?.jobs[0]?.artwork_deleted_at ?? '')).toBeGreaterThanOrEqual(sweptAt);
    expect(swept[1]?.jobs[0]?.photo_deleted_at).toBe(doneJob?.photo_deleted_at);
    // A refused job never had an artwork.
    expect(swept[2]?.jobs[0]).toEqual(refusedJob);

    const csv = await adminGet(client, `${ADMIN_PATHS.consentExport}?from=${today()}&to=${today()}`, session);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(await csv.text());
    expect(rows[0]).toEqual([...CONSENT_EXPORT_CSV_COLUMNS]);
    const asRows = swept.flatMap((record) => {
      const consent = [
        record.consent_id,
        record.created_at,
        record.country_iso,
        record.language,
        record.question_answer,
        String(record.consent_given),
        record.session_id ?? '',
        record.handed_off_at ?? '',
      ];
      return record.jobs.length === 0
        ? [[...consent, '', '', '', '']]
        : record.jobs.map((job) => [
            ...consent,
            job.job_id,
            job.uploaded_at,
            job.photo_deleted_at ?? '',
            job.artwork_deleted_at ?? '',
          ]);
    });
    expect(rows.slice(1)).toEqual(asRows);
  });

  it('notes when a phone first took the visit over under a consent', async () => {
    const desktop = newSessionId();
    await client.consent(desktop);
    const code = async () =>
      (await (await client.postJson('/api/handoff', { user_session_id: desktop })).json()) as { token: string };
    const [first, second] = [await code(), await code()];
    const claimedAt = Date.now();
    expect((await client.postJson('/api/handoff/claim', { token: first.token })).status).toBe(200);
    const noted = async () => (await ndjson(today())).find((record) => record.session_id === desktop)?.handed_off_at;
    const handedOffAt = await noted();
    expect(Date.parse(handedOffAt ?? '')).toBeGreaterThanOrEqual(claimedAt);
    // A second phone later does not move it: the record keeps the first.
    expect((await client.postJson('/api/handoff/claim', { token: second.token })).status).toBe(200);
    expect(await noted()).toBe(handedOffAt);
    const csv = parseCsv(
      await (await adminGet(client, `${ADMIN_PATHS.consentExport}?from=${today()}&to=${today()}`, session)).text(),
    );
    const column = CONSENT_EXPORT_CSV_COLUMNS.indexOf('handed_off_at');
    const row = csv.find((fields) => fields[CONSENT_EXPORT_CSV_COLUMNS.indexOf('session_id')] === desktop);
    expect(row?.[column]).toBe(handedOffAt);
  });

  it('gives every consent of the range exactly once, in time order, across batches', async () => {
    const { backend } = server.app.services;
    const total = 2 * EXPORT_BATCH + 345;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: new Date('2026-05-01T23:59:58Z') });
    try {
      // Many in the same millisecond: the order falls back to the id, and no batch boundary loses or repeats one.
      for (let i = 0; i < total; i++) {
        await backend.consents.add({
          sessionId: null,
          countryIso: 'de',
          language: 'de',
          questionAnswer: 'yes',
          consentGiven: true,
        });
      }
    } finally {
      vi.useRealTimers();
    }
    const records = await ndjson('2026-05-01', '2026-05-02');
    expect(records).toHaveLength(total);
    expect(new Set(records.map((record) => record.consent_id)).size).toBe(total);
    const keys = records.map((record) => `${record.created_at} ${record.consent_id}`);
    expect(keys).toEqual([...keys].sort());
    expect((await ndjson('2026-04-30')).length).toBe(0);
  });
});
