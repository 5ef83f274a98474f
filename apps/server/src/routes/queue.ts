import {
  ApiError,
  errorSchema,
  isFinalStatus,
  jobParamsSchema,
  POLL,
  queueStatusSchema,
} from '@selfie-mosaic/contract';
import { z } from 'zod';
import { jobStatus } from '../services/jobs/job-status.js';
import type { App, Services } from './context.js';

const POLL_RETRY_AFTER_SECONDS = String(POLL.initialMs / 1000);

export function queueRoutes(app: App, { backend, hub, pollBudget, clock }: Services): void {
  app.get(
    '/api/queue/position/:jobId',
    {
      schema: {
        summary: 'Poll a job: status, queue position and the seconds until its artwork is ready',
        params: jobParamsSchema,
        response: { 200: queueStatusSchema, 404: errorSchema, 408: errorSchema },
      },
      // The hot path: the body is built from typed store fields, so skip re-validating it on the way out.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => {
      if (!pollBudget.tryTake())
        throw new ApiError('overloaded', undefined, { 'retry-after': POLL_RETRY_AFTER_SECONDS });
      const job = await backend.jobs.get(request.params.jobId);
      if (!job) throw new ApiError('jobNotFound');
      return jobStatus(backend, clock, job);
    },
  );

  app.get(
    '/api/queue/stream/:jobId',
    {
      // A HEAD request must not open a stream that nobody reads.
      exposeHeadRoute: false,
      config: { eventStream: true },
      schema: {
        summary:
          'Event stream of a job: one `data:` JSON message (status, queue_position, error_message, eta_seconds) per change',
        params: jobParamsSchema,
        produces: ['text/event-stream'],
        response: {
          204: z.null().describe('Reconnect after the job finished: nothing more will come'),
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const job = await backend.jobs.get(request.params.jobId);
      if (!job) throw new ApiError('jobNotFound');
      // A browser's automatic reconnect after the final message: tell it to stop for good.
      if (request.headers['last-event-id'] !== undefined && isFinalStatus(job.status))
        return reply.code(204).send(null);
      reply.hijack();
      await hub.open(reply.raw, job);
    },
  );
}
