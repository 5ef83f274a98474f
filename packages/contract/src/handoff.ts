import { z } from 'zod';
import { HANDOFF, HANDOFF_STATES, HANDOFF_TOKEN_PATTERN, normalizeHandoffToken } from './handoff-token.js';
import { jobIdSchema } from './job-ids.js';
import { sessionIdSchema } from './schemas.js';

/** The hand-off's requests and answers (its constants and token helpers are in `handoff-token.ts`). */

export {
  createHandoffToken,
  groupHandoffToken,
  HANDOFF,
  HANDOFF_SCREEN,
  HANDOFF_STATES,
  HANDOFF_TOKEN_PATTERN,
  type HandoffState,
  handoffUrl,
  isFinalHandoffState,
  normalizeHandoffToken,
} from './handoff-token.js';

/** The hand-off's own id: what the desktop and the phone follow it by, never the token. */
export const handoffIdSchema = z.uuid().describe('The hand-off id returned when it was created');

const handoffToken = z
  .string()
  .max(64)
  .transform((typed, context) => {
    const token = normalizeHandoffToken(typed);
    if (token === null) {
      context.addIssue({ code: 'custom', message: `must be ${HANDOFF.tokenChars} characters of the code` });
      return z.NEVER;
    }
    return token;
  })
  .describe('The token from the code, as scanned or typed (case and dashes do not matter)');

export const handoffCreateRequestSchema = z.strictObject({
  user_session_id: sessionIdSchema.describe('The desktop session, which must have recorded consent'),
  job_id: jobIdSchema
    .optional()
    .describe("Give the session's completed job to open its artwork on the phone instead of the photo step"),
});

export const handoffCreateResponseSchema = z.object({
  handoff_id: handoffIdSchema,
  token: z.string().regex(HANDOFF_TOKEN_PATTERN).describe('Single use; shown only to the desktop that asked'),
  expires_at: z.iso.datetime().describe('The code cannot be used after this'),
});

export const handoffClaimRequestSchema = z.strictObject({ token: handoffToken });

export const handoffClaimResponseSchema = z.object({
  handoff_id: handoffIdSchema,
  user_session_id: sessionIdSchema,
  country_iso: z.string(),
  language: z.string(),
  /** Set when the code opens an artwork: the phone shows its result instead of the photo step. */
  job_id: jobIdSchema.nullable(),
});

export const handoffParamsSchema = z.object({ handoffId: handoffIdSchema });

/** What the desktop follows: the stream's `data:` payload and the poll's body. */
export const handoffStatusSchema = z.object({
  state: z.enum(HANDOFF_STATES),
  job_id: jobIdSchema.nullable().describe('The phone’s job once the state is submitted (or the artwork’s job)'),
  expires_at: z.iso.datetime().describe('While waiting: when the code runs out; after: when following ends'),
});

/** The phone tells the desktop what it is doing: sending its photo, or back at its camera after a failed send. */
export const handoffProgressRequestSchema = z.strictObject({
  user_session_id: sessionIdSchema,
  state: z.enum(['connected', 'uploading']),
});

export type HandoffCreateRequest = z.input<typeof handoffCreateRequestSchema>;
export type HandoffCreateResponse = z.infer<typeof handoffCreateResponseSchema>;
export type HandoffClaimResponse = z.infer<typeof handoffClaimResponseSchema>;
export type HandoffStatus = z.infer<typeof handoffStatusSchema>;
export type HandoffProgressRequest = z.infer<typeof handoffProgressRequestSchema>;
