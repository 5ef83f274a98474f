import { z } from 'zod';

/**
 * The two names a job goes by. Storage builds file and object names from them, so these checks are
 * also what keeps a name from reaching outside its folder.
 */

/** A job id is a random UUID, made when the upload is accepted. */
export const jobIdSchema = z.uuid().describe('The job id returned by the upload');

export function createJobId(): string {
  return globalThis.crypto.randomUUID();
}

export function isJobId(value: string): boolean {
  return jobIdSchema.safeParse(value).success;
}

const RESULT_TOKEN_BYTES = 16;

/**
 * The artwork's address is its only secret: 128 random bits as 32 lower-case hex digits, unrelated
 * to the job id, so knowing a job id never reveals an artwork.
 */
export const RESULT_TOKEN_PATTERN = /^[0-9a-f]{32}$/;

export function isResultToken(value: string): boolean {
  return RESULT_TOKEN_PATTERN.test(value);
}

export function createResultToken(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(RESULT_TOKEN_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
