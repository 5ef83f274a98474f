import { randomUUID } from 'node:crypto';
import {
  ApiError,
  createHandoffToken,
  errorSchema,
  HANDOFF,
  handoffClaimRequestSchema,
  handoffClaimResponseSchema,
  handoffCreateRequestSchema,
  handoffCreateResponseSchema,
  handoffParamsSchema,
  handoffProgressRequestSchema,
  handoffStatusSchema,
  isFinalHandoffState,
  POLL,
} from '@selfie-mosaic/contract';
import { z } from 'zod';
import { handoffEvent, handoffStatus } from '../services/handoff-status.js';
import type { App, Services } from './context.js';

const POLL_RETRY_AFTER_SECONDS = String(POLL.initialMs / 1000);

/**
 * Desktop → phone: the desktop asks for a code, the phone claims it and goes on in the same session under
 * the desktop's consent, and the desktop follows the hand-off (stream or poll) until the phone's photo is a
 * job. Nothing of the desktop is stored, and the code's token only as a hash until it is used.
 */
export function handoffRoutes(app: App, services: Services): void {
  const { backend, config, handoffStreams, pollBudget } = services;
  const rateLimit = { max: config.rateLimit.handoff, timeWindow: config.rateLimit.windowMs };
  const notFound = 'handoffNotFound' as const;

  app.post(
    '/api/handoff',
    {
      schema: {
        summary: 'Ask for a single-use code that continues this visit on a phone, under its recorded consent',
        body: handoffCreateRequestSchema,
        response: {
          201: handoffCreateResponseSchema,
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
          429: errorSchema,
        },
      },
      config: { rateLimit },
    },
    async (request, reply) => {
      const { user_session_id: sessionId, job_id: artworkJobId } = request.body;
      const consent = await backend.consents.coveringConsent(sessionId);
      if (!consent) throw new ApiError('noConsent');
      const token = createHandoffToken();
      const createdAt = Date.now();
      const claimExpiresAt = createdAt + config.handoffClaimMs;
      const handoff = await backend.handoffs.create({
        id: randomUUID(),
        token,
        sessionId,
        consentId: consent.id,
        artworkJobId: artworkJobId ?? null,
        createdAt,
        claimExpiresAt,
        followExpiresAt: Math.max(createdAt + HANDOFF.followMs, claimExpiresAt),
      });
      // Only the session's own finished artwork can be opened on a phone.
      if (!handoff) throw new ApiError('resultNotFound');
      return reply
        .code(201)
        .send({ handoff_id: handoff.id, token, expires_at: new Date(claimExpiresAt).toISOString() });
    },
  );

  app.post(
    '/api/handoff/claim',
    {
      schema: {
        summary: "Use a code on the phone: continue the desktop's session under its consent",
        body: handoffClaimRequestSchema,
        response: { 200: handoffClaimResponseSchema, 400: errorSchema, 410: errorSchema, 429: errorSchema },
      },
      config: { rateLimit },
    },
    async (request) => {
      const claim = await backend.handoffs.claim(request.body.token, Date.now(), HANDOFF.followMs);
      // Used, run out or never issued: one answer, so a guess learns nothing about which.
      if (!claim) throw new ApiError('handoffInvalid');
      backend.events.publishHandoff(handoffEvent(claim.handoff));
      return {
        handoff_id: claim.handoff.id,
        user_session_id: claim.handoff.sessionId,
        country_iso: claim.consent.countryIso,
        language: claim.consent.language,
        job_id: claim.handoff.artworkJobId,
      };
    },
  );

  app.post(
    '/api/handoff/:handoffId/state',
    {
      schema: {
        summary: 'The phone says what it is doing: sending its photo, or back at its camera after a failed send',
        params: handoffParamsSchema,
        body: handoffProgressRequestSchema,
        response: { 204: z.null(), 400: errorSchema, 404: errorSchema },
      },
      config: { notFound },
    },
    async (request, reply) => {
      const { user_session_id: sessionId, state } = request.body;
      const handoff = await backend.handoffs.progress(request.params.handoffId, sessionId, state, Date.now());
      // Another session's, ended or not yet claimed: the phone has nothing to report to.
      if (!handoff) throw new ApiError('handoffNotFound');
      backend.events.publishHandoff(handoffEvent(handoff));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/handoff/:handoffId',
    {
      schema: {
        summary: 'Poll a hand-off: waiting for the phone, connected, uploading, submitted (with its job) or expired',
        params: handoffParamsSchema,
        response: { 200: handoffStatusSchema, 404: errorSchema, 408: errorSchema },
      },
      config: { notFound },
    },
    async (request) => {
      if (!pollBudget.tryTake())
        throw new ApiError('overloaded', undefined, { 'retry-after': POLL_RETRY_AFTER_SECONDS });
      const handoff = await backend.handoffs.get(request.params.handoffId);
      if (!handoff) throw new ApiError('handoffNotFound');
      return handoffStatus(handoffEvent(handoff), Date.now());
    },
  );

  app.get(
    '/api/handoff/:handoffId/stream',
    {
      // A HEAD request must not open a stream that nobody reads.
      exposeHeadRoute: false,
      config: { eventStream: true, notFound },
      schema: {
        summary:
          'Event stream of a hand-off: one `data:` JSON message (state, job_id, expires_at) now and on every change, until submitted or expired',
        params: handoffParamsSchema,
        produces: ['text/event-stream'],
        response: {
          204: z.null().describe('Reconnect after the hand-off ended: nothing more will come'),
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const handoff = await backend.handoffs.get(request.params.handoffId);
      if (!handoff) throw new ApiError('handoffNotFound');
      // A browser's automatic reconnect after the final message: tell it to stop for good.
      const ended = isFinalHandoffState(handoffStatus(handoffEvent(handoff), Date.now()).state);
      if (request.headers['last-event-id'] !== undefined && ended) return reply.code(204).send(null);
      reply.hijack();
      await handoffStreams.open(reply.raw, handoff.id);
    },
  );
}
