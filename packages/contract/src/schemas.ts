import { COUNTRIES, LOCALE_CODES } from '@selfie-mosaic/campaign';
import { z } from 'zod';
import { ANALYTICS_EVENTS } from './admin.js';
import { API_ERROR_CODES } from './errors.js';
import { jobIdSchema } from './job-ids.js';
import { SESSION_ID_PATTERN } from './session-id.js';
import { JOB_STATUSES, QUEUE_STATUSES } from './statuses.js';

/** One schema per resource: validation, TypeScript types and the OpenAPI document all come from here. */

/**
 * A country code; the server also checks it is one of the running campaign's markets (they come from its
 * campaign file at start, so no schema written here can list them).
 */
const countryIso = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => (COUNTRIES as readonly string[]).includes(value), {
    message: 'must be a country the campaign runs in',
  })
  .describe('ISO 3166-1 alpha-2 code of a market of the campaign, case-insensitive');

export const languageSchema = z.enum(LOCALE_CODES).describe(`One of the ${LOCALE_CODES.length} locale codes`);

export const sessionIdSchema = z
  .string()
  .regex(SESSION_ID_PATTERN, 'must look like session-<digits>-<letters and digits>')
  .describe('The client session id, session-<timestamp>-<random>');

export const errorSchema = z
  .object({
    error: z.string().describe('English, for developers; may name the field at fault'),
    code: z.enum(API_ERROR_CODES).describe('The catalogue code: clients translate by it'),
  })
  .describe('Every error answer');

export const consentRequestSchema = z.strictObject({
  country_iso: countryIso,
  language: languageSchema,
  question_answer: z.enum(['yes', 'no']),
  consent_given: z.boolean(),
  ip_address: z.null().default(null).describe('Always null: the service stores no IP address'),
  user_session_id: sessionIdSchema.optional(),
});

export const consentResponseSchema = z.object({
  consent_id: z.uuid(),
  created_at: z.iso.datetime(),
});

/** The text fields of the multipart upload; `photo` is the file part. */
export const uploadFieldsSchema = z.object({
  user_session_id: sessionIdSchema,
  blacklabel: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe('true for the dark "black label" art variant'),
  handoff_id: z
    .uuid()
    .optional()
    .describe('Sent by a phone that continues a desktop visit: the desktop follows this upload'),
});

export const uploadResponseSchema = z.object({
  job_id: jobIdSchema,
  status: z.enum(JOB_STATUSES),
  queue_position: z.number().int().nonnegative(),
});

export const queueStatusSchema = z.object({
  status: z.enum(QUEUE_STATUSES),
  queue_position: z.number().int().nonnegative(),
  error_message: z.string().nullable(),
  /** Key of the engine's refusal (e.g. `no_face`) so the client can translate `error_message`. */
  error_code: z.string().nullable().optional(),
  /**
   * Seconds until the artwork is ready, from the workers' measured throughput (whole seconds, at least 1);
   * null once the job has ended. Optional only for clients' own records made before the first status.
   */
  eta_seconds: z.number().int().nonnegative().nullable().optional(),
});

export const resultResponseSchema = z.object({
  job_id: jobIdSchema,
  status: z.literal('completed'),
  file_path: z.string().describe('Appended to the API base it gives the artwork URL'),
  width: z.number().int(),
  height: z.number().int(),
  story_path: z.string().describe('Appended to the API base it gives the 9:16 story version of the artwork'),
  story_width: z.number().int(),
  story_height: z.number().int(),
  plan_path: z
    .string()
    .describe(
      'Appended to the API base it gives the laying plan (application/octet-stream, gzip): every tessera in the order it is laid',
    ),
  expires_at: z.iso.datetime(),
});

export const pageviewRequestSchema = z.strictObject({
  country_iso: countryIso,
  language: languageSchema,
  page_path: z.string().min(1).max(512).startsWith('/'),
  ip_address: z.null().default(null),
  user_agent: z.string().max(1024).nullable(),
});

/** A visitor's download or share of the artwork, counted under the page views' privacy rules. */
export const analyticsEventRequestSchema = z.strictObject({
  event: z.enum(ANALYTICS_EVENTS),
  country_iso: countryIso,
  language: languageSchema,
  ip_address: z.null().default(null),
  user_agent: z.string().max(1024).nullable(),
});

export const jobParamsSchema = z.object({ jobId: jobIdSchema });

export type ConsentRequest = z.input<typeof consentRequestSchema>;
export type ConsentResponse = z.infer<typeof consentResponseSchema>;
export type UploadFields = z.output<typeof uploadFieldsSchema>;
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export type QueueStatus = z.infer<typeof queueStatusSchema>;
export type ResultResponse = z.infer<typeof resultResponseSchema>;
export type PageviewRequest = z.input<typeof pageviewRequestSchema>;
export type AnalyticsEventRequest = z.input<typeof analyticsEventRequestSchema>;
export type ErrorBody = z.infer<typeof errorSchema>;
