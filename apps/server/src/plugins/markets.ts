import { type Campaign, findMarket } from '@selfie-mosaic/campaign';
import { ApiError } from '@selfie-mosaic/contract';
import type { FastifyInstance } from 'fastify';

/**
 * A `country_iso` in a request body must be a market of the running campaign. The contract's schemas check that it is
 * a country code; which countries are markets comes from the campaign file at start, so it is checked here, once for
 * every route that takes one (consent, page views, events).
 */
export function checkMarkets(app: FastifyInstance, campaign: Pick<Campaign, 'markets'>): void {
  app.addHook('preHandler', async (request) => {
    const body = request.body as { country_iso?: unknown } | null | undefined;
    if (!body || typeof body !== 'object' || typeof body.country_iso !== 'string') return;
    if (!findMarket(campaign, body.country_iso)) {
      throw new ApiError('invalidField', 'Invalid field "country_iso": must be a country the campaign runs in');
    }
  });
}
