/**
 * Redis clients that answer visitors (uploads, polls, streams, events, rate limits): while Redis is away
 * a command waits for one reconnect try at most, then fails, so an upload is refused (503) before anything
 * is stored and a poll answers 503 within seconds instead of hanging; commands sent while the client first
 * connects simply wait for it. The client reconnects by itself, its waits between tries capped (ioredis'
 * default backoff).
 */
export const FAIL_FAST = { maxRetriesPerRequest: 1, connectTimeout: 2000 } as const;
