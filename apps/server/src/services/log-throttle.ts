import type { FastifyBaseLogger } from 'fastify';

/** How long a kind of warning stays quiet after it was logged. */
const QUIET_MS = 10_000;
/** Kinds remembered at once; the kinds are few (a dependency and an error code), so this only bounds a surprise. */
const MAX_KINDS = 100;

/**
 * Warnings that repeat while their cause lasts (a database restarting fails every query, a Redis client
 * retries its connection every few hundred milliseconds): the first of a kind is logged, the same kind
 * again only after a quiet interval, counting the lines it left out.
 */
export class LogThrottle {
  private readonly kinds = new Map<string, { loggedAt: number; left: number }>();

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly quietMs = QUIET_MS,
    private readonly now: () => number = Date.now,
  ) {}

  warn(kind: string, fields: Record<string, unknown>, message: string): void {
    const now = this.now();
    const seen = this.kinds.get(kind);
    if (seen && now - seen.loggedAt < this.quietMs) {
      seen.left++;
      return;
    }
    if (!seen && this.kinds.size >= MAX_KINDS) this.kinds.clear();
    this.log.warn(seen?.left ? { ...fields, repeated: seen.left } : fields, message);
    this.kinds.set(kind, { loggedAt: now, left: 0 });
  }
}
