import { ApiError, errorSchema, jobParamsSchema, RESULT_TTL_MS, resultResponseSchema } from '@selfie-mosaic/contract';
import { z } from 'zod';
import { RESULTS } from '../services/storage-names.js';
import type { App, Services } from './context.js';

/** A browser may keep the artwork as long as the service keeps it by default. */
const ARTWORK_CACHE_CONTROL = `private, max-age=${RESULT_TTL_MS / 1000}, immutable`;

function resultPath(token: string): string {
  return `/files/${RESULTS.nameOf(token)}`;
}

export function resultRoutes(app: App, { backend, config }: Services): void {
  app.get(
    '/api/result/:jobId',
    {
      schema: {
        summary: 'The finished artwork of a job',
        params: jobParamsSchema,
        response: { 200: resultResponseSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const job = await backend.jobs.get(request.params.jobId);
      if (job?.status !== 'completed' || !job.resultToken || !job.expiresAt) {
        throw new ApiError('resultNotFound');
      }
      return {
        job_id: job.id,
        status: 'completed' as const,
        file_path: resultPath(job.resultToken),
        width: job.width ?? 0,
        height: job.height ?? 0,
        expires_at: new Date(job.expiresAt).toISOString(),
      };
    },
  );

  app.get(
    '/files/:file',
    {
      schema: {
        summary: 'The artwork JPEG; ?download=1 makes it an attachment',
        params: z.object({ file: z.string() }),
        querystring: z.object({ download: z.string().optional().describe('1 to download as an attachment') }),
        produces: ['image/jpeg'],
      },
    },
    async (request, reply) => {
      const token = RESULTS.keyOf(request.params.file);
      const job = token ? await backend.jobs.findByResultToken(token, Date.now()) : undefined;
      const file = token && job ? await backend.storage.openResult(token) : undefined;
      if (!file) throw new ApiError('resultNotFound');
      reply.type('image/jpeg').header('content-length', file.size).header('cache-control', ARTWORK_CACHE_CONTROL);
      if (request.query.download === '1' || request.query.download === 'true') {
        reply.header('content-disposition', `attachment; filename="${config.campaign.brand.downloadFileName}"`);
      }
      return reply.send(file.stream);
    },
  );
}
