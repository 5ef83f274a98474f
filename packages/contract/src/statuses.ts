/** Job statuses a job row can hold (docs/product.md#job-statuses). */
export const JOB_STATUSES = ['pending', 'queued', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What the stream and polling may report: a job status, or `error`, the overload signal of the stream. */
export const QUEUE_STATUSES = [...JOB_STATUSES, 'error'] as const;
export type QueueStatusValue = (typeof QUEUE_STATUSES)[number];

/** Statuses after which nothing about a job changes any more. */
export const FINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed'];

/** Statuses during which the client keeps monitoring (docs/product.md#returning-to-a-saved-job). */
export const ACTIVE_STATUSES: readonly JobStatus[] = ['pending', 'queued', 'processing'];

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

export function isActiveStatus(status: string): boolean {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}
