import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { EventStreams } from '../services/event-streams.js';
import type { HandoffStreams } from '../services/handoff-streams.js';
import type { JobRunner } from '../services/jobs/job-runner.js';
import type { QueueClock } from '../services/jobs/queue-clock.js';
import type { Metrics } from '../services/metrics.js';
import type { PollBudget } from '../services/poll-budget.js';
import type { StorageHealth } from '../services/storage-health.js';
import type { StreamHub } from '../services/stream-hub.js';
import type { Backend } from '../services/types.js';

/** The app with zod schemas driving validation, types and the OpenAPI document. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The services routes use, built once per app in `buildApp`. */
export interface Services {
  config: Config;
  backend: Backend;
  /** Absent in an API-only process (ROLE=api). */
  runner: JobRunner | undefined;
  /** Every open event stream: their shared limit and heartbeat. */
  streams: EventStreams;
  /** Job streams. */
  hub: StreamHub;
  /** Hand-off streams, followed by the desktop. */
  handoffStreams: HandoffStreams;
  /** The queue's time estimate, measured from every worker's renders. */
  clock: QueueClock;
  pollBudget: PollBudget;
  metrics: Metrics;
  /** Whether storage (files and records) takes writes; uploads and readiness follow it. */
  health: StorageHealth;
  /** Ready: serving with warm render workers; stopping: shutdown has begun. */
  lifecycle: { ready: boolean; stopping: boolean };
}
