import { consentRequestSchema, consentResponseSchema, errorSchema } from '@selfie-mosaic/contract';
import { marketCheck } from '../plugins/markets.js';
import type { App, Services } from './context.js';

export function consentRoutes(app: App, { backend, config }: Services): void {
  app.post(
    '/api/consent',
    {
      schema: {
        summary: 'Record the age-gate answer and terms consent',
        body: consentRequestSchema,
        response: { 201: consentResponseSchema, 400: errorSchema, 403: errorSchema, 429: errorSchema },
      },
      config: { rateLimit: { max: config.rateLimit.consent, timeWindow: config.rateLimit.windowMs } },
      preHandler: marketCheck(config.campaign),
    },
    async (request, reply) => {
      const body = request.body;
      const consent = await backend.consents.add({
        sessionId: body.user_session_id ?? null,
        countryIso: body.country_iso,
        language: body.language,
        questionAnswer: body.question_answer,
        consentGiven: body.consent_given,
      });
      return reply.code(201).send({ consent_id: consent.id, created_at: consent.createdAt });
    },
  );
}
