import { createGunzip } from 'node:zlib';
import {
  ApiError,
  artworkFileName,
  errorSchema,
  jobParamsSchema,
  RESULT_TTL_MS,
  resultResponseSchema,
  STORY_ARTWORK,
} from '@selfie-mosaic/contract';
import { z } from 'zod';
import { parseResultFileName, type ResultFile, resultFileName } from '../services/storage-names.js';
import type { App, Services } from './context.js';

/** A browser may keep the artwork as long as the service keeps it by default. */
const ARTWORK_CACHE_CONTROL = `private, max-age=${RESULT_TTL_MS / 1000}, immutable`;

function resultPath(token: string, file: ResultFile): string {
  return `/files/${resultFileName(token, file)}`;
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
        file_path: resultPath(job.resultToken, 'post'),
        width: job.width ?? 0,
        height: job.height ?? 0,
        // The engine makes the story version at one size, so the job record need not keep it.
        story_path: resultPath(job.resultToken, 'story'),
        story_width: STORY_ARTWORK.width,
        story_height: STORY_ARTWORK.height,
        plan_path: resultPath(job.resultToken, 'plan'),
        expires_at: new Date(job.expiresAt).toISOString(),
      };
    },
  );

  app.get(
    '/files/:file',
    {
      schema: {
        summary:
          'The artwork JPEG (file_path), its story version (story_path) or their laying plan (plan_path, gzip-encoded); ?download=1 makes a picture an attachment',
        params: z.object({ file: z.string() }),
        querystring: z.object({ download: z.string().optional().describe('1 to download as an attachment') }),
        produces: ['image/jpeg', 'application/octet-stream'],
      },
    },
    async (request, reply) => {
      const name = parseResultFileName(request.params.file);
      const job = name ? await backend.jobs.findByResultToken(name.token, Date.now()) : undefined;
      const file = name && job ? await backend.storage.openResult(name.token, name.file) : undefined;
      if (!name || !file) throw new ApiError('resultNotFound');
      reply.header('cache-control', ARTWORK_CACHE_CONTROL);
      if (name.file === 'plan') {
        // Stored gzip-compressed; the rare client that does not take gzip gets it inflated on the way.
        reply.type('application/octet-stream').header('vary', 'accept-encoding');
        if (!/\bgzip\b/.test(request.headers['accept-encoding'] ?? ''))
          return reply.send(file.stream.pipe(createGunzip()));
        reply.header('content-encoding', 'gzip').header('content-length', file.size);
        return reply.send(file.stream);
      }
      reply.type('image/jpeg').header('content-length', file.size);
      if (request.query.download === '1' || request.query.download === 'true') {
        const fileName = artworkFileName(config.campaign.brand.downloadFileName, name.file);
        reply.header('content-disposition', `attachment; filename="${fileName}"`);
      }
      return reply.send(file.stream);
    },
  );
}
