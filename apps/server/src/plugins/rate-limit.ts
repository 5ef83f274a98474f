import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fastifyRateLimit, { normalizeIP, type RateLimitPluginOptions } from '@fastify/rate-limit';
import { ApiError } from '@selfie-mosaic/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { LogThrottle } from '../services/log-throttle.js';
import { describe } from '../services/storage-health.js';

/**
 * A visitor waits at most this long for a Redis that accepts connections but does not answer; the request
 * then goes through unlimited (see `skipOnError`).
 */
const COMMAND_TIMEOUT_MS = 1000;

/** Where a deployment's rate-limit entries live in Redis, beside its queue. */
export function rateLimitKeys(queueName: string) {
  return { counters: `${queueName}:rate-limit:count:`, secret: `${queueName}:rate-limit:secret` };
}

interface Secret {
  current(): Promise<Buffer>;
}

/**
 * Rate limits per client address without holding the address: a counter is keyed by an HMAC of the address
 * (IPv6 by its /64, as the plugin's own key does), so neither memory nor Redis holds one. Embedded mode
 * counts in this process's memory with a secret of its own. Scale mode counts in Redis, so a limit holds
 * across all API processes together, with a secret they share and that rotates (`SharedSecret`); each
 * counter expires with its window.
 */
export async function registerRateLimit(app: FastifyInstance, scale: Config['scale']): Promise<void> {
  const shared = scale ? await sharedStore(app, scale) : undefined;
  const local = randomBytes(32);
  const secret: Secret = shared?.secret ?? { current: async () => local };
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => new ApiError('rateLimited'),
    keyGenerator: async (request) =>
      createHmac('sha256', await secret.current())
        .update(normalizeIP(request.ip))
        .digest('base64url'),
    ...shared?.options,
  });
}

async function sharedStore(
  app: FastifyInstance,
  scale: NonNullable<Config['scale']>,
): Promise<{ secret: Secret; options: RateLimitPluginOptions }> {
  // Imported only in scale mode, like the other scale adapters.
  const [{ Redis }, { FAIL_FAST }, { SharedSecret }] = await Promise.all([
    import('ioredis'),
    import('../services/scale/redis-options.js'),
    import('../services/scale/shared-secret.js'),
  ]);
  const redis = new Redis(scale.redisUrl, { ...FAIL_FAST, commandTimeout: COMMAND_TIMEOUT_MS });
  // Without a listener ioredis prints every failed reconnect to stderr, stack and all.
  const warnings = new LogThrottle(app.log);
  redis.on('error', (err: Error) => {
    const error = describe(err);
    warnings.warn(
      `rate-limit:${error.code ?? error.message}`,
      { dependency: 'redis', error },
      'rate limiter: redis error (retried)',
    );
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  // Counted from the first request on: a command sent before the connection is up would be refused.
  // A Redis that is down or silent at start does not stop the start (an error or the timeout ends the wait).
  await once(redis, 'ready', { signal: AbortSignal.timeout(FAIL_FAST.connectTimeout) }).catch(() => {});
  const keys = rateLimitKeys(scale.queueName);
  const secret = new SharedSecret(redis, keys.secret);
  await secret.current();
  return {
    secret,
    options: {
      redis,
      nameSpace: keys.counters,
      // Fail open: while Redis is away requests go through unlimited instead of being refused for the
      // limiter's sake. A campaign would rather lose its limits for a short outage than its visitors: a
      // consent still reaches the database, and the calls that need Redis (uploads, polls) answer 503 anyway.
      skipOnError: true,
    },
  };
}
