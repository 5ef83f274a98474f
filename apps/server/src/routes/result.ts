import { BRAND } from '@selfie-mosaic/campaign';
import { ApiError, errorSchema, jobParamsSchema, resultResponseSchema } from '@selfie-mosaic/contract';
import { z } from 'zod';
import type { App, Services } from './context.js';

const FILE_NAME = /^([0-9a-f]{32})\.jpg$/;

function resultPath(token: string): string {
  return `/files/${token}.jpg`;
}

export function resultRoutes(app: App, { backend }: Services): void {
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
      const token = FILE_NAME.exec(request.params.file)?.[1];
      const job = token ? await backend.jobs.findByResultToken(token, Date.now()) : undefined;
      const file = token && job ? await backend.storage.openResult(token) : undefined;
      if (!file) throw new ApiError('resultNotFound');
      reply
        .type('image/jpeg')
        .header('content-length', file.size)
        .header('cache-control', 'private, max-age=86400, immutable');
      if (request.query.download === '1' || request.query.download === 'true') {
        reply.header('content-disposition', `attachment; filename="${BRAND.downloadFileName}"`);
      }
      return reply.send(file.stream);
    },
  );
}
