import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, {
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AdminSecret } from './admin/secret.js';
import type { Config } from './config.js';
import { clientErrorHandler } from './plugins/client-errors.js';
import { connectionOptions, limitConnectionsPerAddress } from './plugins/connection-limits.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerMetricsRoute } from './plugins/metrics.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { closeSilentConnections } from './plugins/silent-connections.js';
import { registerWeb } from './plugins/web.js';
import { registerXsrf } from './plugins/xsrf.js';
import { adminRoutes } from './routes/admin.js';
import { analyticsRoutes } from './routes/analytics.js';
import { consentRoutes } from './routes/consent.js';
import type { App, Services } from './routes/context.js';
import { docsRoutes } from './routes/docs.js';
import { handoffRoutes } from './routes/handoff.js';
import { healthRoutes } from './routes/health.js';
import { queueRoutes } from './routes/queue.js';
import { resultRoutes } from './routes/result.js';
import { uploadRoutes } from './routes/upload.js';
import { createBackend } from './services/create-backend.js';
import { EventStreams } from './services/event-streams.js';
import { HandoffStreams } from './services/handoff-streams.js';
import { JobRunner } from './services/jobs/job-runner.js';
import { QueueClock } from './services/jobs/queue-clock.js';
import { TYPICAL_RENDER_MS } from './services/jobs/queue-eta.js';
import { ORPHAN_GRACE_MS, reconcileStorage } from './services/jobs/reconcile.js';
import { startSweeper, sweepExpired } from './services/jobs/sweeper.js';
import { LogThrottle } from './services/log-throttle.js';
import { createMetrics } from './services/metrics.js';
import { PollBudget } from './services/poll-budget.js';
import { createRenderPool } from './services/render-pool.js';
import { describe, StorageHealth } from './services/storage-health.js';
import { StreamHub } from './services/stream-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's services, for tests and tools (e.g. running a retention sweep at a given time). */
    services: Services & { sweep(now?: number): Promise<number> };
  }
}

/** JSON bodies are a few hundred bytes; anything near this is not a real client. */
const JSON_BODY_LIMIT = 16 * 1024;

export interface BuildOptions {
  /** Where JSON log lines go (default stdout); tests pass a stream to read them. */
  logStream?: { write(line: string): void };
}

function loggerOptions(config: Config, stream?: BuildOptions['logStream']): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    // No IP address or port in any log line (docs/product.md#privacy-and-retention); only what identifies the request.
    serializers: {
      req: (request) => ({ id: request.id, method: request.method, url: request.url }),
    },
    // Whatever else logs a request's headers (a plugin at trace level, an error carrying them) loses them:
    // they hold the visitor's cookies and, behind a proxy, their address.
    redact: { paths: LOG_REDACTIONS, censor: '[redacted]' },
  };
}

/** A job's or hand-off's poll or stream. */
function followsProgress(request: { method?: string; url?: string }): boolean {
  const url = request.url ?? '';
  return url.startsWith('/api/queue/') || (request.method === 'GET' && url.startsWith('/api/handoff/'));
}

const LOG_REDACTIONS = [
  'headers',
  '*.headers',
  '*.*.headers',
  'remoteAddress',
  '*.remoteAddress',
  'ip',
  '*.ip',
  '*.ips',
];

/**
 * Builds the server in layers: external plugins, then app services (store, queue, storage, worker pool,
 * event fan-out), then routes. It does not listen: `server.ts` does, and tests listen on port 0.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // Polls and streams are the hot paths (thousands a second, thousands held open): they log through
    // the shared logger instead of a child per request, which a held-open stream would keep alive.
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) =>
      followsProgress(rawRequest) ? logger : logger.child(bindings, childOptions),
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    ...connectionOptions(config),
    // Requests Node or Fastify refuse before any route answer from the catalogue too, echoing nothing:
    // Fastify's own answer to a URL it cannot decode would quote it back.
    clientErrorHandler,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
      app.errorHandler(error, request, reply);
    },
    // Per-request lines only when debugging: at 10,000 polls a second they would be the main cost.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  }).withTypeProvider<ZodTypeProvider>();
  if (config.trustProxy === true) {
    app.log.warn(
      "TRUST_PROXY=true believes any client's X-Forwarded-For: anyone can pose as any address and escape " +
        'the rate limits. Set the number of proxies in front (e.g. TRUST_PROXY=1) or their addresses instead.',
    );
  }
  limitConnectionsPerAddress(app, config.connectionsPerAddress);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // External plugins.
  await app.register(fastifyCookie);
  registerSecurityHeaders(app);
  await registerRateLimit(app, config.scale);
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Selfie Mosaic API',
        description: 'Turns a selfie into a personalised mosaic artwork: consent, upload, queue, result.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  registerErrorHandler(app);
  registerXsrf(app);
  closeSilentConnections(app);

  // App services. ROLE=api runs no render workers; ROLE=worker serves only health and metrics.
  const servesApi = config.role !== 'worker';
  const runsJobs = config.role !== 'api';
  const startedAt = Date.now();
  // Whether storage takes writes and the database and Redis answer. Its probe and recovery use the
  // backend, runner and stream hub built below.
  const health = new StorageHealth({
    log: app.log,
    // A write where each kind of write goes (the records, and the files: a directory or a bucket), and the queue.
    probe: async () => {
      await backend.jobs.probeWrite();
      await backend.storage.probe();
      await backend.ping();
    },
    onRecovered: () => {
      runner?.queueStranded().catch((err) => {
        health.report(err);
        app.log.error({ err }, 'stranded jobs not queued');
      });
    },
    // Status events may be lost while a dependency is away: streams hand over to polling, which reads the store.
    onFault: (fault) => {
      if (fault === 'unreachable') streams.shedAll();
    },
  });
  // A client's lost connection repeats with every reconnect try while its dependency is away.
  const dependencyWarnings = new LogThrottle(app.log);
  const backend = await createBackend({
    dataDir: config.dataDir,
    storage: config.storage,
    scale: config.scale,
    maxAttempts: config.maxAttempts,
    onError: (err, dependency) => {
      health.report(err);
      const error = describe(err);
      dependencyWarnings.warn(
        `${dependency}:${error.code ?? error.message}`,
        { dependency, error },
        `${dependency} error (retried)`,
      );
    },
  });
  const metrics = createMetrics(backend, () => health.current === undefined);
  const pool = runsJobs
    ? createRenderPool({
        threads: config.workers,
        log: app.log,
        renderTimeoutMs: config.renderTimeoutMs,
        faultAttempts: config.testFaultAttempts,
        warmUpRenders: config.warmUpRenders,
        art: { colours: config.campaign.art, wordmark: config.campaign.brand.wordmark },
      })
    : undefined;
  const runner = pool
    ? new JobRunner({
        backend,
        pool,
        health,
        log: app.log,
        metrics,
        maxAttempts: config.maxAttempts,
        resultTtlMs: config.resultTtlMs,
        concurrency: config.workers,
      })
    : undefined;
  // The workers this process runs are the least the estimate assumes; the history shows the others'.
  const clock = new QueueClock(backend.operators, { workers: pool ? config.workers : 0, renderMs: TYPICAL_RENDER_MS });
  const streams = new EventStreams(
    config.streamLimit,
    config.heartbeatMs,
    metrics,
    () => health.current === 'unreachable',
  );
  const hub = new StreamHub(backend, clock, streams);
  const handoffStreams = new HandoffStreams(backend, streams);
  const lifecycle = { ready: false, stopping: false };
  const services: Services = {
    config,
    backend,
    runner,
    streams,
    hub,
    handoffStreams,
    clock,
    pollBudget: new PollBudget(config.pollLimit),
    metrics,
    health,
    lifecycle,
  };
  app.decorate('services', { ...services, sweep: (now?: number) => sweepExpired(backend, now) });
  // One sweeper per deployment is enough, but several are harmless: deletes are idempotent.
  // In scale mode the queue (Redis) and the records (PostgreSQL) can part: a job whose queue write was lost
  // in a Redis crash is queued again from its record at each sweep.
  const reconcileQueue = async () => {
    if (config.scale) await runner?.queueStranded();
  };
  const stopSweeper = runsJobs
    ? startSweeper(backend, config.sweepIntervalMs, app.log, health, reconcileQueue)
    : () => {};

  // Routes.
  try {
    healthRoutes(app, services);
    registerMetricsRoute(app, metrics);
    if (servesApi) {
      docsRoutes(app);
      consentRoutes(app, services);
      handoffRoutes(app, services);
      uploadRoutes(app, services);
      queueRoutes(app, services);
      resultRoutes(app, services);
      analyticsRoutes(app, services);
      if (config.admin) await adminRoutes(app, services, new AdminSecret(config.admin));
      await registerWeb(app, config.webDist, config.campaign, { adminPage: config.admin !== undefined });
    }
  } catch (error) {
    // Worker threads and the database would otherwise keep a process that failed to start alive.
    stopSweeper();
    await pool?.close();
    await backend.close();
    throw error;
  }

  app.addHook('onReady', async () => {
    if (!runner || !pool) {
      lifecycle.ready = true;
      return;
    }
    await runner.start();
    // Ready once the workers have their models, so a load balancer sends no visitor to a cold process,
    // and once storage holds nothing a previous process left without a record.
    Promise.all([pool.warmUp(), reconcileAtStart(startedAt)]).then(
      () => {
        lifecycle.ready = !lifecycle.stopping;
      },
      (err) => app.log.error({ err }, 'render workers failed to start'),
    );
  });
  /**
   * Embedded mode: nothing else writes to this storage, so every file without a record from before this
   * start is a leftover. Scale mode: other processes may be mid-upload, so only files older than the grace.
   */
  const reconcileAtStart = async (now: number): Promise<void> => {
    const before = config.scale ? now - ORPHAN_GRACE_MS : now;
    try {
      const removed = await reconcileStorage(backend, before);
      app.log.info(removed, 'storage reconciled with the records');
    } catch (err) {
      // Not fatal: the sweep tries again every SWEEP_INTERVAL.
      health.report(err);
      app.log.error({ err }, 'storage not reconciled at start');
    }
  };
  // Shutdown: refuse readiness, end streams (they hold connections open), let running jobs finish.
  app.addHook('preClose', async () => {
    lifecycle.stopping = true;
    lifecycle.ready = false;
    // Jobs waiting for storage to take writes give up the wait, so the queue can close.
    health.close();
    hub.close();
    streams.closeAll();
  });
  app.addHook('onClose', async () => {
    stopSweeper();
    await backend.queue.close();
    await pool?.close();
    await backend.close();
  });
  return app;
}
