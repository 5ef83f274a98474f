import { API_ERRORS, ApiError, type ApiErrorCode } from '@selfie-mosaic/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { LogThrottle } from '../services/log-throttle.js';
import { describe, faultError, storageFault } from '../services/storage-health.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a path parameter that cannot name anything answers (default `jobNotFound`: most paths name a job). */
    notFound?: ApiErrorCode;
  }
}

/** Fastify and plugin error codes mapped onto the catalogue. */
const FRAMEWORK_ERRORS: Record<string, ApiErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'bodyTooLarge',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalidJson',
  FST_REQ_FILE_TOO_LARGE: 'tooLarge',
  FST_PARTS_LIMIT: 'bodyTooLarge',
  FST_FILES_LIMIT: 'invalidField',
  FST_FIELDS_LIMIT: 'invalidField',
  FST_PROTO_VIOLATION: 'invalidField',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupportedMedia',
  FST_INVALID_JSON_FIELD_ERROR: 'invalidField',
  FST_MP_PREMATURE_CLOSE: 'malformedUpload',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupportedMedia',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalidField',
  FST_ERR_CTP_INVALID_TYPE: 'invalidField',
  FST_ERR_BAD_URL: 'badUrl',
  FST_ERR_INVALID_URL: 'badUrl',
  // Path parameters are job ids and artwork tokens: one this long names nothing.
  FST_ERR_MAX_PARAM_LENGTH: 'notFound',
  FST_ERR_ASYNC_CONSTRAINT: 'invalidField',
};

/** A 4xx the catalogue has no code for answers with the first catalogue entry of its status, never its own text. */
function codeForStatus(status: number): ApiErrorCode {
  const codes = Object.keys(API_ERRORS) as ApiErrorCode[];
  return codes.find((code) => API_ERRORS[code].status === status) ?? 'invalidField';
}

/** The client closed the connection before its request was read: nothing to answer, nothing wrong here. */
function clientGone(request: FastifyRequest): boolean {
  return request.raw.aborted || (request.raw.destroyed && !request.raw.complete);
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_FILES_LIMIT: 'Send exactly one photo',
  FST_FIELDS_LIMIT: 'Too many form fields',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'The upload must be multipart/form-data',
};

function send(
  reply: FastifyReply,
  status: number,
  code: ApiErrorCode,
  message: string = API_ERRORS[code].message,
  headers: Record<string, string> = {},
) {
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send({ error: message, code });
}

/**
 * The one place errors become answers: `{ "error": message, "code": code }` with the catalogue's status. A validation
 * error names its field; a path parameter that cannot be an id is simply an unknown job (or hand-off); a 5xx never
 * shows its cause.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  // While a dependency is away every request that needs it fails alike: a line per kind now and then.
  const refusals = new LogThrottle(app.log);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return send(reply, error.statusCode, error.code, error.message, error.headers);

    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'params') {
        const notFound = request.routeOptions.config.notFound ?? 'jobNotFound';
        return send(reply, API_ERRORS[notFound].status, notFound);
      }
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
      const context = error.validationContext === 'body' ? '' : `${error.validationContext} `;
      return send(
        reply,
        400,
        'invalidField',
        `Invalid ${context}field "${field}": ${first?.message ?? 'invalid value'}`,
      );
    }

    const code = FRAMEWORK_ERRORS[error.code];
    if (code) return send(reply, API_ERRORS[code].status, code, FRAMEWORK_MESSAGES[error.code]);

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      return send(reply, API_ERRORS[code].status, code, FRAMEWORK_MESSAGES[error.code]);
    }
    if (clientGone(request)) {
      // A visitor on a train going into a tunnel: worth a debug line, not an error with a stack.
      request.log.debug({ reqId: request.id, code: error.code }, 'client closed the connection mid-request');
      return send(reply, API_ERRORS.malformedUpload.status, 'malformedUpload');
    }
    // A full disk, a database that refuses writes, or a database or Redis gone away is the operator's to
    // fix or waits out a restart, not a bug: 507/503 with Retry-After, and one line without a stack.
    const fault = storageFault(error);
    if (fault) {
      const answer = faultError(fault);
      const cause = describe(error);
      refusals.warn(
        `${fault}:${cause.code ?? cause.message}`,
        { fault, error: cause },
        'requests refused: storage or a dependency failing',
      );
      return send(reply, answer.statusCode, answer.code, answer.message, answer.headers);
    }
    request.log.error({ err: error, reqId: request.id, url: request.url }, 'request failed');
    return send(reply, API_ERRORS.internal.status, 'internal');
  });
}
