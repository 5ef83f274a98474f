import { CONSENT_EXPORT_CSV_COLUMNS, type ConsentExportRecord } from '@selfie-mosaic/contract';
import type { OperatorQueries } from '../services/types.js';
import { csvLine } from './csv.js';

/** Consents per batch: one query for them, one for the jobs they covered. */
export const EXPORT_BATCH = 1000;

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * The regulator export's records, a batch at a time: keyset pagination over (created_at, id), so memory
 * stays constant and each batch costs the same however deep into the range it is. The consumer pulls:
 * the next batch is read only once the previous one has been taken (the HTTP response's backpressure).
 */
export async function* consentBatches(
  operators: OperatorQueries,
  range: { from: string; to: string },
): AsyncGenerator<ConsentExportRecord[]> {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const consents = await operators.consentsPage(range, after, EXPORT_BATCH);
    if (consents.length === 0) return;
    const jobs = await operators.jobsOfConsents(consents.map((consent) => consent.id));
    const byConsent = new Map<string | null, typeof jobs>();
    for (const job of jobs) {
      const covered = byConsent.get(job.consentId);
      if (covered) covered.push(job);
      else byConsent.set(job.consentId, [job]);
    }
    yield consents.map((consent) => ({
      consent_id: consent.id,
      created_at: consent.createdAt,
      country_iso: consent.countryIso,
      language: consent.language,
      question_answer: consent.questionAnswer,
      consent_given: consent.consentGiven,
      session_id: consent.sessionId,
      handed_off_at: consent.handedOffAt,
      jobs: (byConsent.get(consent.id) ?? []).map((job) => ({
        job_id: job.jobId,
        uploaded_at: iso(job.uploadedAt) as string,
        photo_deleted_at: iso(job.photoDeletedAt),
        artwork_deleted_at: iso(job.artworkDeletedAt),
      })),
    }));
    const last = consents.at(-1) as { createdAt: string; id: string };
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/** The CSV lines of one record: one per job it covered, or one with empty job columns. */
export function consentCsvLines(record: ConsentExportRecord): string {
  const consent = [
    record.consent_id,
    record.created_at,
    record.country_iso,
    record.language,
    record.question_answer,
    record.consent_given,
    record.session_id,
    record.handed_off_at,
  ];
  if (record.jobs.length === 0) return csvLine([...consent, null, null, null, null]);
  return record.jobs
    .map((job) => csvLine([...consent, job.job_id, job.uploaded_at, job.photo_deleted_at, job.artwork_deleted_at]))
    .join('');
}

export const CONSENT_CSV_HEADER = csvLine(CONSENT_EXPORT_CSV_COLUMNS);

/** The export in the chosen format, one text chunk per batch. */
export async function* consentExport(
  operators: OperatorQueries,
  range: { from: string; to: string },
  format: 'csv' | 'ndjson',
): AsyncGenerator<string> {
  if (format === 'csv') yield CONSENT_CSV_HEADER;
  for await (const batch of consentBatches(operators, range)) {
    yield batch.map((record) => (format === 'csv' ? consentCsvLines(record) : `${JSON.stringify(record)}\n`)).join('');
  }
}
