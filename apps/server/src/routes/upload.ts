import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import {
  ApiError,
  errorSchema,
  UPLOAD_LIMITS,
  uploadFieldsSchema,
  uploadResponseSchema,
} from '@selfie-mosaic/contract';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { handoffEvent } from '../services/handoff-status.js';
import { acceptJob } from '../services/jobs/job-intake.js';
import { checkPhoto } from '../services/photo-check.js';
import type { Backend } from '../services/types.js';
import type { App, Services } from './context.js';

const QUEUE_FULL_RETRY_AFTER_SECONDS = 30;

export function uploadRoutes(app: App, { backend, config, health }: Services): void {
  app.post(
    '/api/upload',
    {
      schema: {
        summary: 'Upload a selfie; answers with the queued job',
        consumes: ['multipart/form-data'],
        response: {
          202: uploadResponseSchema,
          400: errorSchema,
          403: errorSchema,
          413: errorSchema,
          415: errorSchema,
          429: errorSchema,
          503: errorSchema,
          507: errorSchema,
        },
      },
      config: { rateLimit: { max: config.rateLimit.upload, timeWindow: config.rateLimit.windowMs } },
    },
    async (request, reply) => {
      const { photo, fields: allFields } = await readUpload(request);
      // The hand-off is only followed, never a reason to refuse the photo: it is read apart (below).
      const { handoff_id: handoffField, ...fields } = allFields;
      const parsed = uploadFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || 'form';
        const problem = fields[field] === undefined ? 'is required' : issue?.message;
        throw new ApiError('invalidField', `Invalid field "${field}": ${problem}`);
      }
      if (!photo) throw new ApiError('invalidField', 'Invalid field "photo": attach the photo file');
      const { user_session_id: sessionId, blacklabel } = parsed.data;

      const consent = await backend.consents.coveringConsent(sessionId);
      if (!consent) throw new ApiError('noConsent');
      // The place in the queue is taken before the slow steps, or parallel uploads that all saw one free
      // place would all take it. It is given back once the job is queued (it then counts itself) or failed.
      const release = await backend.queue.reserve(config.queueLimit);
      if (!release) {
        throw new ApiError('queueFull', undefined, { 'retry-after': String(QUEUE_FULL_RETRY_AFTER_SECONDS) });
      }
      let jobId: string;
      try {
        await checkPhoto(photo);
        jobId = await acceptJob({ backend, health, log: request.log }, { sessionId, consent, blacklabel, photo });
      } finally {
        await release();
      }
      if (handoffField !== undefined) await followHandoff(backend, request.log, { handoffField, sessionId, jobId });
      // The job is stored and queued: a position that cannot be read now (Redis just went away) must not turn
      // the accepted upload into an error the visitor would retry; the first poll tells the real place.
      const position = await backend.queue.position(jobId).catch(() => 1);
      return reply.code(202).send({ job_id: jobId, status: 'queued', queue_position: Math.max(1, position) });
    },
  );
}

/**
 * A phone continuing a desktop's visit: the desktop following the hand-off learns the photo's job. The
 * photo is accepted whatever happens here (an unknown, ended or foreign hand-off, a failed write): the
 * desktop then sees the hand-off end, and the phone has its job.
 */
async function followHandoff(
  backend: Backend,
  log: FastifyBaseLogger,
  upload: { handoffField: string; sessionId: string; jobId: string },
): Promise<void> {
  const handoffId = uploadFieldsSchema.shape.handoff_id.safeParse(upload.handoffField).data;
  try {
    const handoff = handoffId
      ? await backend.handoffs.submitted(handoffId, upload.sessionId, upload.jobId, Date.now())
      : undefined;
    if (handoff) backend.events.publishHandoff(handoffEvent(handoff));
    else log.debug({ jobId: upload.jobId }, 'upload names no hand-off it can continue');
  } catch (err) {
    log.debug({ err, jobId: upload.jobId }, 'hand-off not followed by the upload');
  }
}

const MULTIPART_LIMITS = {
  fileSize: UPLOAD_LIMITS.maxBytes,
  files: 1,
  fields: 8,
  fieldSize: 1024,
  parts: 10,
};

/**
 * Reads the form; a body the multipart parser cannot make sense of (no boundary, cut short, random bytes,
 * broken part headers) is the client's fault and says so. Limits and field errors keep their own answers.
 */
async function readUpload(request: FastifyRequest) {
  try {
    return await readParts(request.parts({ limits: MULTIPART_LIMITS }));
  } catch (error) {
    if (error instanceof ApiError || (error as { code?: string }).code?.startsWith('FST_')) throw error;
    // A client gone mid-upload is not malformed input: the error handler logs it at debug.
    if (request.raw.aborted) throw error;
    throw new ApiError('malformedUpload');
  }
}

/** Reads every part whatever its order; `toBuffer()` throws as soon as the file passes the size limit. */
async function readParts(parts: AsyncIterableIterator<MultipartFile | MultipartValue>) {
  let photo: Buffer | undefined;
  const fields: Record<string, string> = {};
  let unexpectedFile: string | undefined;
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname === 'photo') photo = await part.toBuffer();
      else {
        unexpectedFile = part.fieldname;
        part.file.resume();
      }
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  if (unexpectedFile) throw new ApiError('invalidField', `Invalid field "${unexpectedFile}": only "photo" is a file`);
  return { photo, fields };
}
