import { Readable } from 'node:stream';
import {
  ADMIN_COOKIE,
  ADMIN_PATHS,
  ADMIN_RANGE_MAX_DAYS,
  ApiError,
  adminFunnelSchema,
  adminLiveSchema,
  adminRangeSchema,
  adminSignInSchema,
  consentExportQuerySchema,
  errorSchema,
} from '@selfie-mosaic/contract';
import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { consentExport } from '../admin/consent-export.js';
import { buildFunnel, daysOf, funnelCsv } from '../admin/funnel.js';
import { liveFigures } from '../admin/live.js';
import type { AdminSecret } from '../admin/secret.js';
import type { App, Services } from './context.js';

const noContent = z.null().describe('Done');
const unauthorized = { 401: errorSchema };

/** Refuses a range of UTC days longer than ADMIN_RANGE_MAX_DAYS (the schema has checked the days themselves). */
function assertRangeLength(from: string, to: string): void {
  if (daysOf(from, to).length > ADMIN_RANGE_MAX_DAYS) {
    throw new ApiError(
      'invalidField',
      `Invalid querystring field "to": at most ${ADMIN_RANGE_MAX_DAYS} days after from`,
    );
  }
}

/** The times a range of UTC days spans, [from 00:00, the day after to): ISO times compare as text in both databases. */
function timesOf(from: string, to: string): { from: string; to: string } {
  assertRangeLength(from, to);
  return { from: `${from}T00:00:00.000Z`, to: new Date(Date.parse(to) + 24 * 60 * 60 * 1000).toISOString() };
}

function attachment(reply: FastifyReply, type: string, filename: string): FastifyReply {
  return reply.type(type).header('content-disposition', `attachment; filename="${filename}"`);
}

/**
 * The operators' API (docs/architecture.md#operators), registered only when an admin secret is set: without one
 * every path here is unknown (404). Signing in sets the signed cookie; one hook checks it for everything else.
 */
export async function adminRoutes(app: App, { backend, config }: Services, secret: AdminSecret): Promise<void> {
  app.post(
    ADMIN_PATHS.session,
    {
      schema: {
        summary: 'Sign in to the dashboard with ADMIN_TOKEN (or the password); sets the session cookie',
        body: adminSignInSchema,
        response: { 204: noContent, 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema },
      },
      config: { rateLimit: { max: config.rateLimit.signIn, timeWindow: config.rateLimit.windowMs } },
    },
    async (request, reply) => {
      if (!(await secret.verify(request.body.token))) throw new ApiError('unauthorized');
      const expiresAt = Date.now() + ADMIN_COOKIE.maxAgeSeconds * 1000;
      reply.setCookie(ADMIN_COOKIE.name, secret.issue(expiresAt), {
        path: ADMIN_COOKIE.path,
        maxAge: ADMIN_COOKIE.maxAgeSeconds,
        httpOnly: true,
        sameSite: 'strict',
        secure: 'auto',
      });
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );

  app.delete(
    ADMIN_PATHS.session,
    { schema: { summary: 'Sign out of the dashboard', response: { 204: noContent, 403: errorSchema } } },
    async (_request, reply) => {
      reply.clearCookie(ADMIN_COOKIE.name, {
        path: ADMIN_COOKIE.path,
        httpOnly: true,
        sameSite: 'strict',
        secure: 'auto',
      });
      return reply.code(204).send(null);
    },
  );

  await app.register(async (plugin) => {
    const signedIn = plugin.withTypeProvider<ZodTypeProvider>();
    // The one check for every signed-in route; the figures are nobody's to cache.
    signedIn.addHook('onRequest', async (request, reply) => {
      if (!secret.accepts(request.cookies[ADMIN_COOKIE.name], Date.now())) throw new ApiError('unauthorized');
      reply.header('cache-control', 'no-store');
    });

    signedIn.get(
      ADMIN_PATHS.session,
      { schema: { summary: 'Whether the dashboard session is valid', response: { 204: noContent, ...unauthorized } } },
      async (_request, reply) => reply.code(204).send(null),
    );

    signedIn.get(
      ADMIN_PATHS.live,
      { schema: { summary: 'Queue and render figures, live', response: { 200: adminLiveSchema, ...unauthorized } } },
      async () => liveFigures(backend, Date.now()),
    );

    signedIn.get(
      ADMIN_PATHS.funnel,
      {
        schema: {
          summary: 'The funnel per market and locale for a range of UTC days',
          querystring: adminRangeSchema,
          response: { 200: adminFunnelSchema, 400: errorSchema, ...unauthorized },
        },
      },
      async (request) => {
        const { from, to } = request.query;
        assertRangeLength(from, to);
        return buildFunnel(from, to, await backend.operators.funnelCounts(from, to));
      },
    );

    signedIn.get(
      ADMIN_PATHS.funnelCsv,
      {
        schema: {
          summary: 'The funnel as CSV, one row per market and locale',
          querystring: adminRangeSchema,
          produces: ['text/csv'],
          response: { 200: z.string(), 400: errorSchema, ...unauthorized },
        },
      },
      async (request, reply) => {
        const { from, to } = request.query;
        assertRangeLength(from, to);
        const funnel = buildFunnel(from, to, await backend.operators.funnelCounts(from, to));
        return attachment(reply, 'text/csv; charset=utf-8', `funnel-${from}-to-${to}.csv`).send(funnelCsv(funnel));
      },
    );

    signedIn.get(
      ADMIN_PATHS.consentExport,
      {
        schema: {
          summary: 'Consent records with their jobs and deletion times, streamed (CSV or NDJSON)',
          querystring: consentExportQuerySchema,
          produces: ['text/csv', 'application/x-ndjson'],
          response: { 200: z.string(), 400: errorSchema, ...unauthorized },
        },
      },
      async (request, reply) => {
        const { from, to, format } = request.query;
        const range = timesOf(from, to);
        const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
        const stream = Readable.from(consentExport(backend.operators, range, format), { objectMode: false });
        stream.on('error', (err) => request.log.error({ err }, 'consent export failed mid-stream'));
        return attachment(reply, type, `consents-${from}-to-${to}.${format}`).send(stream);
      },
    );
  });
}
