import { Redis } from 'ioredis';
import { MemoryStatusEvents } from '../embedded/memory-events.js';
import type { HandoffEvent, JobEvent, StatusEvents } from '../types.js';
import { FAIL_FAST } from './redis-options.js';

/**
 * Status events across processes: a publish goes to Redis pub/sub, and every process delivers what it
 * receives to its own listeners (per job or hand-off, in memory). One channel for all jobs and one for all
 * hand-offs: each process gets every event (a handful per rendered job or hand-off) and drops those nobody
 * follows, which costs less than one Redis subscription per open stream.
 */
export class RedisStatusEvents implements StatusEvents {
  private readonly local = new MemoryStatusEvents();
  private readonly publisher: Redis;
  private subscriber: Redis | undefined;
  private subscribed: Promise<unknown> = Promise.resolve();
  private readonly channels;

  constructor(
    private readonly redisUrl: string,
    namespace: string,
    /** A lost publish only delays a stream until its next event or the client's poll: report, don't throw. */
    private readonly onError: (error: Error) => void = () => {},
  ) {
    // An event published while Redis is away is dropped after one reconnect try rather than piling up in
    // memory: streams are moved to polling during the outage, and the store has what the event said.
    this.publisher = new Redis(redisUrl, FAIL_FAST);
    this.publisher.on('error', this.onError);
    this.channels = {
      job: `${namespace}:job-events`,
      moved: `${namespace}:queue-moved`,
      handoff: `${namespace}:handoff-events`,
    };
  }

  publish(event: JobEvent): void {
    this.publisher.publish(this.channels.job, JSON.stringify(event)).catch(this.onError);
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    this.listen();
    return this.local.subscribe(jobId, listener);
  }

  publishQueueMoved(): void {
    this.publisher.publish(this.channels.moved, '').catch(this.onError);
  }

  onQueueMoved(listener: () => void): () => void {
    this.listen();
    return this.local.onQueueMoved(listener);
  }

  publishHandoff(event: HandoffEvent): void {
    this.publisher.publish(this.channels.handoff, JSON.stringify(event)).catch(this.onError);
  }

  /** A claim or upload handled by another API process reaches the desktop's stream held by this one. */
  subscribeHandoff(handoffId: string, listener: (event: HandoffEvent) => void): () => void {
    this.listen();
    return this.local.subscribeHandoff(handoffId, listener);
  }

  /** Subscribes on first use: a worker process, which follows no stream, never receives the traffic. */
  private listen(): void {
    if (this.subscriber) return;
    this.subscriber = new Redis(this.redisUrl);
    // ioredis reconnects and re-subscribes by itself; errors are only reported.
    this.subscriber.on('error', this.onError);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channels.moved) this.local.publishQueueMoved();
      else if (channel === this.channels.job) this.local.publish(JSON.parse(message) as JobEvent);
      else if (channel === this.channels.handoff) this.local.publishHandoff(JSON.parse(message) as HandoffEvent);
    });
    this.subscribed = this.subscriber.subscribe(this.channels.job, this.channels.moved, this.channels.handoff);
  }

  /** Resolves once the subscription is live (an event published before that is not received here). */
  async ready(): Promise<void> {
    this.listen();
    await this.subscribed;
  }

  async close(): Promise<void> {
    await this.local.close();
    this.subscriber?.disconnect();
    // quit, not disconnect: the last events (a job just completed) still reach Redis.
    await this.publisher.quit().catch(this.onError);
  }
}
