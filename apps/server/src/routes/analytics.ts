import { analyticsEventRequestSchema, errorSchema, pageviewRequestSchema } from '@selfie-mosaic/contract';
import Bowser from 'bowser';
import { z } from 'zod';
import { marketCheck } from '../plugins/markets.js';
import type { App, Services } from './context.js';

/** The browser family is all that is kept of a user agent: enough for reach, too little to fingerprint. */
function browserFamily(userAgent: string | null | undefined): string {
  if (!userAgent) return 'unknown';
  if (/\b(FBAN|FBAV|FB_IAB)\b/.test(userAgent)) return 'Facebook in-app';
  if (/\bInstagram\b/.test(userAgent)) return 'Instagram in-app';
  if (/bot|crawler|spider|crawling/i.test(userAgent)) return 'bot';
  return Bowser.getParser(userAgent).getBrowserName() || 'other';
}

/** The page without its query string or fragment: those carry tokens, campaign ids and whatever a link adds. */
export function pathOnly(pagePath: string): string {
  return pagePath.replace(/[?#].*$/s, '') || '/';
}

export function analyticsRoutes(app: App, { backend, config }: Services): void {
  const inMarket = marketCheck(config.campaign);
  app.post(
    '/api/analytics/pageview',
    {
      schema: {
        summary: 'Count a page view (path, locale, country and browser family only)',
        body: pageviewRequestSchema,
        response: { 204: z.null().describe('Counted'), 400: errorSchema, 403: errorSchema },
      },
      preHandler: inMarket,
    },
    async (request, reply) => {
      const body = request.body;
      await backend.pageviews.add({
        countryIso: body.country_iso,
        language: body.language,
        pagePath: pathOnly(body.page_path),
        browserFamily: browserFamily(body.user_agent ?? request.headers['user-agent']),
      });
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/analytics/event',
    {
      schema: {
        summary: 'Count a download or share of the artwork (event, locale, country and browser family only)',
        body: analyticsEventRequestSchema,
        response: { 204: z.null().describe('Counted'), 400: errorSchema, 403: errorSchema },
      },
      preHandler: inMarket,
    },
    async (request, reply) => {
      const body = request.body;
      await backend.analytics.add({
        event: body.event,
        countryIso: body.country_iso,
        language: body.language,
        browserFamily: browserFamily(body.user_agent ?? request.headers['user-agent']),
      });
      return reply.code(204).send(null);
    },
  );
}
