import { randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobQueue, QueueCounts, QueueHandler, QueueReservation } from '../types.js';
import { FAIL_FAST } from './redis-options.js';

/**
 * Every job enters with this priority; a job whose attempt failed is raised to RETRY_PRIORITY before
 * BullMQ retries it, so it goes back to the head of the queue (as in embedded mode) instead of the tail.
 */
const WAITING_PRIORITY = 2;
const RETRY_PRIORITY = 1;

/**
 * Positions of waiting jobs, O(log n) each with any number waiting. Prioritized jobs sit in BullMQ's
 * `prioritized` sorted set in the order they will be taken (score = priority, then insertion counter),
 * behind anything in the `wait` list (a stalled job put back at the head). So:
 * in the sorted set → LLEN(wait) + ZRANK + 1; in the wait list (short: recovered jobs only) → from its
 * index, the list being taken from the right; elsewhere (active, finished, unknown) → 0.
 */
const POSITION_SCRIPT = `
local waiting = redis.call('LLEN', KEYS[2])
local positions = {}
for i, id in ipairs(ARGV) do
  local rank = redis.call('ZRANK', KEYS[1], id)
  if rank then
    positions[i] = waiting + rank + 1
  else
    local index = redis.call('LPOS', KEYS[2], id)
    positions[i] = index and (waiting - index) or 0
  end
end
return positions
`;

/**
 * Takes a waiting place for an upload in progress if the waiting jobs (wait list + prioritized set) and
 * the places already taken are below the limit, in one script so no two API processes take the last one.
 * Places are members of a sorted set scored by their expiry: those of an API process that died are
 * dropped after RESERVATION_TTL_MS.
 * KEYS: wait, prioritized, reservations; ARGV: limit, now, expiry, token.
 */
const RESERVE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[2])
local taken = redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3])
if taken >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
return 1
`;

/** Far longer than an upload's checks and storage write take; only bounds a dead process's places. */
const RESERVATION_TTL_MS = 5 * 60 * 1000;

/** Ids per script call: bounds the time one call holds Redis. */
const POSITION_BATCH = 1000;

type PositionClient = Redis & {
  jobPositions(prioritized: string, wait: string, ...jobIds: string[]): Promise<number[]>;
  reservePlace(
    wait: string,
    prioritized: string,
    reservations: string,
    limit: number,
    now: number,
    expiry: number,
    token: string,
  ): Promise<number>;
};

export interface BullQueueOptions {
  redisUrl: string;
  /** Queue name; several deployments (or tests) can share one Redis under different names. */
  name: string;
  /** Render attempts the job runner allows; BullMQ's own limits are set just above so the runner decides. */
  maxAttempts: number;
  /** How long a worker's lock on a job lives without renewal: a killed worker's job returns after it. */
  lockDurationMs: number;
  /** How often each worker looks for stalled jobs (default: half the lock duration). */
  stalledIntervalMs?: number;
  /** Worker errors (e.g. Redis briefly unreachable); BullMQ retries by itself, so they are only reported. */
  onError?: (error: Error) => void;
}

/**
 * The scale-mode queue: BullMQ on Redis. BullMQ does the hard parts: atomic hand-out to any number of
 * worker processes, retries (attempts), locks renewed while a job runs and stalled-job recovery when a
 * worker dies, graceful close. Only ids travel; the job's data lives in the JobStore.
 */
export class BullJobQueue implements JobQueue {
  /** Uploads, polls and streams: a command fails after one reconnect try while Redis is away, so they answer 503 instead of hanging. */
  private readonly connection: PositionClient;
  /** The worker's: its blocking commands wait through a Redis restart (BullMQ requires it). */
  private workerConnection: Redis | undefined;
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private readonly recoveredListeners = new Set<(jobId: string) => void>();

  constructor(private readonly options: BullQueueOptions) {
    this.connection = new Redis(options.redisUrl, FAIL_FAST) as PositionClient;
    this.connection.on('error', (error) => this.options.onError?.(error));
    this.connection.defineCommand('jobPositions', { numberOfKeys: 2, lua: POSITION_SCRIPT });
    this.connection.defineCommand('reservePlace', { numberOfKeys: 3, lua: RESERVE_SCRIPT });
    this.queue = new Queue(options.name, { connection: this.connection });
    // Without a listener BullMQ prints the Queue's connection errors to stderr, stack and all.
    this.queue.on('error', (error) => this.options.onError?.(error));
  }

  async add(jobId: string): Promise<void> {
    // A job id already in the queue is ignored by BullMQ, so re-adding at start is safe.
    await this.queue.add('render', null, {
      jobId,
      priority: WAITING_PRIORITY,
      attempts: this.options.maxAttempts + 1,
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async position(jobId: string): Promise<number> {
    return (await this.positions([jobId]))[0] ?? 0;
  }

  async positions(jobIds: readonly string[]): Promise<number[]> {
    const { prioritized, wait } = this.queue.keys;
    const answers: number[] = [];
    for (let from = 0; from < jobIds.length; from += POSITION_BATCH) {
      const batch = jobIds.slice(from, from + POSITION_BATCH);
      const positions = await this.connection.jobPositions(prioritized as string, wait as string, ...batch);
      answers.push(...positions.map(Number));
    }
    return answers;
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async counts(): Promise<QueueCounts> {
    const counts = await this.queue.getJobCounts('wait', 'prioritized', 'active');
    return { waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0 };
  }

  async reserve(limit: number): Promise<QueueReservation | undefined> {
    const { prioritized, wait } = this.queue.keys;
    const reservations = this.queue.toKey('upload-reservations');
    const token = randomUUID();
    const now = Date.now();
    const taken = await this.connection.reservePlace(
      wait as string,
      prioritized as string,
      reservations,
      limit,
      now,
      now + RESERVATION_TTL_MS,
      token,
    );
    if (Number(taken) !== 1) return undefined;
    return async () => {
      await this.connection.zrem(reservations, token);
    };
  }

  /** BullMQ's stalled check recovers jobs of dead workers continuously: see `onRecovered`. */
  async recover(): Promise<string[]> {
    return [];
  }

  onRecovered(listener: (jobId: string) => void): void {
    this.recoveredListeners.add(listener);
  }

  process(handler: QueueHandler, options: { concurrency: number }): void {
    const lockDuration = this.options.lockDurationMs;
    // maxRetriesPerRequest null: BullMQ's blocking commands must wait through a Redis restart, not fail.
    const workerConnection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    workerConnection.on('error', (error) => this.options.onError?.(error));
    this.workerConnection = workerConnection;
    this.worker = new Worker(
      this.options.name,
      async (job: Job) => {
        const jobId = job.id as string;
        try {
          // attemptsStarted counts deliveries, a lost one (dead worker) included.
          await handler({ jobId, attempt: job.attemptsStarted });
        } catch (error) {
          await job.changePriority({ priority: RETRY_PRIORITY });
          throw error;
        }
      },
      {
        connection: workerConnection,
        concurrency: options.concurrency,
        lockDuration,
        stalledInterval: this.options.stalledIntervalMs ?? Math.max(500, Math.round(lockDuration / 2)),
        maxStalledCount: this.options.maxAttempts + 1,
      },
    );
    this.worker.on('stalled', (jobId) => {
      for (const listener of this.recoveredListeners) listener(jobId);
    });
    // Without a listener an 'error' event would throw; BullMQ carries on after it.
    this.worker.on('error', (error) => this.options.onError?.(error));
  }

  /** Stops taking jobs and waits for the running ones (BullMQ's graceful close); positions still answer. */
  async close(): Promise<void> {
    await this.worker?.close();
  }

  /** Closes the Redis connections; after `close`, when the backend shuts down. */
  async disconnect(): Promise<void> {
    await this.queue.close();
    for (const connection of [this.connection, this.workerConnection]) {
      await connection?.quit().catch(() => connection.disconnect());
    }
  }

  /** Tests: stop as a killed process would, leaving the running job locked until its lock expires. */
  async abandon(): Promise<void> {
    await this.worker?.close(true);
    await this.queue.close();
    this.connection.disconnect();
    this.workerConnection?.disconnect();
  }
}
