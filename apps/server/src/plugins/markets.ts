import { type Campaign, findMarket } from '@selfie-mosaic/campaign';
import { ApiError } from '@selfie-mosaic/contract';
import type { FastifyRequest } from 'fastify';

/**
 * A `country_iso` in a request body must be a market of the running campaign. The contract's schemas check that it is
 * a country code; which countries are markets comes from the campaign file at start, so the routes that take one
 * (consent, page views, events) check it with this preHandler. Only those routes: polls and streams, the hot paths,
 * carry no body and pay nothing.
 */
export function marketCheck(campaign: Pick<Campaign, 'markets'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const { country_iso: country } = request.body as { country_iso: string };
    if (!findMarket(campaign, country)) {
      throw new ApiError('invalidField', 'Invalid field "country_iso": must be a country the campaign runs in');
    }
  };
}
