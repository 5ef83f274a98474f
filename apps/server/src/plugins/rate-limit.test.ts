import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, consentRequest, newSessionId, startTestServer, type TestServer } from '../test/harness.js';
import { createDatabase, type RestartableService, startRedis } from '../test/services.js';
import { rateLimitKeys } from './rate-limit.js';

const LIMIT = 3;
const WINDOW_S = 60;
const LIMITS = { TRUST_PROXY: '1', RATE_LIMIT_CONSENT: String(LIMIT), RATE_LIMIT_WINDOW: String(WINDOW_S) };
/** Visitors told apart by the address their proxy forwards (TRUST_PROXY=1). */
const VISITOR_A = '203.0.113.7';
const VISITOR_B = '198.51.100.23';

function consentFrom(client: Client, address: string): Promise<number> {
  return client
    .postJson('/api/consent', consentRequest(newSessionId()), { 'x-forwarded-for': address })
    .then((response) => response.status);
}

/** Every key in the Redis, with its value when it is a string. */
async function everyEntry(redis: Redis): Promise<{ key: string; value: string | null }[]> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ count: 1000 })) keys.push(...(batch as string[]));
  return Promise.all(
    keys.map(async (key) => ({ key, value: (await redis.type(key)) === 'string' ? await redis.get(key) : null })),
  );
}

describe('scale mode: two API processes sharing one Redis', () => {
  const queueName = `test-${randomUUID()}`;
  const redis = new Redis(inject('redisUrl'));
  const servers: TestServer[] = [];
  let apis: Client[];

  beforeAll(async () => {
    const env = {
      ...LIMITS,
      ROLE: 'api',
      REDIS_URL: inject('redisUrl'),
      DATABASE_URL: await createDatabase(inject('postgresUrl')),
      QUEUE_NAME: queueName,
    };
    // One after the other: the first one migrates the database they share.
    for (let i = 0; i < 2; i++) servers.push(await startTestServer(env));
    apis = await Promise.all(servers.map((server) => new Client(server.url).init()));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    const keys = await redis.keys(`${queueName}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("counts a visitor's requests on both processes against one limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push(await consentFrom(apis[i % 2] as Client, VISITOR_A));
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it('counts each visitor on their own', async () => {
    for (const api of apis) expect(await consentFrom(api, VISITOR_B)).toBe(201);
    expect(await consentFrom(apis[0] as Client, VISITOR_A)).toBe(429);
  });

  it("keeps no visitor's address in Redis, and each counter expires with its window", async () => {
    const entries = await everyEntry(redis);
    for (const address of [VISITOR_A, VISITOR_B]) {
      for (const { key, value } of entries) {
        expect(key).not.toContain(address);
        expect(value ?? '').not.toContain(address);
      }
    }
    const counters = entries.filter(({ key }) => key.startsWith(rateLimitKeys(queueName).counters));
    // One counter per visitor, whichever process counted.
    expect(counters).toHaveLength(2);
    expect(counters.map(({ value }) => Number(value)).sort()).toEqual([2, LIMIT + 3]);
    for (const { key } of counters) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW_S * 1000);
    }
  });
});

describe('scale mode while Redis is away', () => {
  let redis: RestartableService;
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    redis = await startRedis();
    server = await startTestServer({
      ...LIMITS,
      ROLE: 'api',
      REDIS_URL: redis.url,
      DATABASE_URL: await createDatabase(inject('postgresUrl')),
      QUEUE_NAME: `test-${randomUUID()}`,
    });
    api = await new Client(server.url).init();
  });

  afterAll(async () => {
    await server.stop();
    await redis.stop();
  });

  it('lets visitors through unlimited instead of failing them, and limits again once it is back', async () => {
    await redis.crash();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push(await consentFrom(api, VISITOR_A));
    // Consents are recorded in PostgreSQL, which is up.
    expect(statuses).toEqual(Array(LIMIT + 2).fill(201));

    await redis.restart();
    // The limiter's client reconnects by itself; until it has, requests still go through.
    const deadline = Date.now() + 30_000;
    let status = 201;
    while (status === 201 && Date.now() < deadline) status = await consentFrom(api, VISITOR_A);
    expect(status).toBe(429);
  });
});

describe('embedded mode', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(LIMITS);
  });

  afterAll(async () => {
    await server.stop();
  });

  it('limits in memory, per visitor', async () => {
    const api = await new Client(server.url).init();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push(await consentFrom(api, VISITOR_A));
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await consentFrom(api, VISITOR_B)).toBe(201);
  });
});
