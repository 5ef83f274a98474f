import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_CAMPAIGN, DEFAULT_CAMPAIGN_FILE } from '@selfie-mosaic/campaign';
import { HANDOFF, RESULT_TTL_MS, STREAM_HEARTBEAT_MS } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from './admin/secret.js';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('starts with the defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      webDist: path.resolve('apps/web/dist'),
      workers: availableParallelism(),
      warmUpRenders: 3,
      maxAttempts: 3,
      resultTtlMs: RESULT_TTL_MS,
      handoffClaimMs: HANDOFF.claimMs,
      heartbeatMs: STREAM_HEARTBEAT_MS,
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/mosaic',
      WORKERS: '4',
      WARM_UP_RENDERS: '0',
      QUEUE_LIMIT: '50',
      STREAM_LIMIT: '100',
      POLL_LIMIT: '500',
      RATE_LIMIT_WINDOW: '30',
      RATE_LIMIT_CONSENT: '5',
      RATE_LIMIT_UPLOAD: '2',
      RATE_LIMIT_HANDOFF: '4',
      RATE_LIMIT_SIGN_IN: '3',
      RESULT_TTL: '3600',
      HANDOFF_TTL: '120',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/mosaic',
      workers: 4,
      warmUpRenders: 0,
      queueLimit: 50,
      streamLimit: 100,
      pollLimit: 500,
      rateLimit: { windowMs: 30_000, consent: 5, upload: 2, handoff: 4, signIn: 3 },
      resultTtlMs: 3_600_000,
      handoffClaimMs: 120_000,
      logLevel: 'warn',
      trustProxy: true,
    });
  });

  it('turns a hop count into a function trusting that many proxies', () => {
    const { trustProxy } = loadConfig({ TRUST_PROXY: '1' });
    expect(typeof trustProxy).toBe('function');
    const trusts = trustProxy as (address: string, hop: number) => boolean;
    expect([trusts('10.0.0.1', 0), trusts('10.0.0.2', 1)]).toEqual([true, false]);
  });

  it('names every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        WORKERS: '0',
        LOG_LEVEL: 'loud',
        QUEUE_LIMIT: '10',
        RATE_LIMIT_HANDOFF: '0',
        HANDOFF_TTL: '86400',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('WORKERS="0"');
    expect(message).toContain('LOG_LEVEL="loud"');
    expect(message).toContain('RATE_LIMIT_HANDOFF="0"');
    // A code that outlived the window the desktop follows it in would be claimed with nobody watching.
    expect(message).toContain('HANDOFF_TTL="86400"');
    expect(message).not.toContain('QUEUE_LIMIT');
  });

  it('turns the dashboard on with ADMIN_TOKEN or ADMIN_PASSWORD_HASH, checked without ever echoing them', async () => {
    expect(loadConfig({}).admin).toBeUndefined();
    const token = 'a-long-enough-operator-token';
    expect(loadConfig({ ADMIN_TOKEN: token }).admin).toEqual({ kind: 'token', token });
    const passwordHash = await hashPassword('correct horse battery staple');
    expect(loadConfig({ ADMIN_PASSWORD_HASH: passwordHash }).admin).toEqual({ kind: 'passwordHash', passwordHash });

    const refused = {
      'ADMIN_TOKEN=(hidden): must be at least 24 characters': { ADMIN_TOKEN: 'short-secret' },
      'ADMIN_PASSWORD_HASH=(hidden): expected scrypt$': { ADMIN_PASSWORD_HASH: 'plain-password-not-a-hash' },
      'ADMIN_PASSWORD_HASH=(hidden): N must be a power of two': {
        ADMIN_PASSWORD_HASH: passwordHash.replace('N=16384', 'N=1000'),
      },
      'ADMIN_PASSWORD_HASH=(hidden): choose one': { ADMIN_TOKEN: token, ADMIN_PASSWORD_HASH: passwordHash },
    };
    for (const [expected, env] of Object.entries(refused)) {
      const message = (() => {
        try {
          loadConfig(env);
          return 'accepted';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toContain(expected);
      for (const value of Object.values(env)) expect(message).not.toContain(value);
    }
  });

  it('selects scale mode, the role and the storage from REDIS_URL, DATABASE_URL, ROLE and S3_*', () => {
    expect(loadConfig({})).toMatchObject({
      role: 'all',
      scale: undefined,
      storage: { kind: 'directory', dir: path.resolve('./data') },
    });
    const config = loadConfig({
      ROLE: 'worker',
      REDIS_URL: 'redis://cache:6379',
      DATABASE_URL: 'postgres://u:p@db/selfie',
      QUEUE_LOCK_TIMEOUT: '5',
      S3_BUCKET: 'artworks',
      S3_ENDPOINT: 'http://minio:9000',
    });
    expect(config).toMatchObject({
      role: 'worker',
      scale: {
        redisUrl: 'redis://cache:6379',
        databaseUrl: 'postgres://u:p@db/selfie',
        queueName: 'renders',
        lockDurationMs: 5000,
      },
      storage: { kind: 's3', bucket: 'artworks', endpoint: 'http://minio:9000', region: 'us-east-1' },
    });
    expect(loadConfig({ STORAGE_DIR: '/mnt/shared' }).storage).toEqual({ kind: 'directory', dir: '/mnt/shared' });
  });

  it('refuses settings that only make sense together, naming what to change', () => {
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(messageOf({ ROLE: 'api' })).toMatch(/ROLE="api": .*REDIS_URL and DATABASE_URL/);
    expect(messageOf({ ROLE: 'cook' })).toContain('ROLE="cook"');
    expect(messageOf({ REDIS_URL: 'redis://cache' })).toMatch(/DATABASE_URL=.*needs it too/);
    expect(messageOf({ REDIS_URL: 'http://cache', DATABASE_URL: 'mysql://db' })).toMatch(
      /REDIS_URL="http:\/\/cache": expected a redis:\/\/[\s\S]*DATABASE_URL="mysql:\/\/db": expected a postgres:\/\//,
    );
    expect(messageOf({ S3_ENDPOINT: 'http://minio:9000' })).toMatch(/S3_ENDPOINT=.*set S3_BUCKET/);
    expect(messageOf({ S3_BUCKET: 'art', STORAGE_DIR: '/x' })).toMatch(/STORAGE_DIR=.*choose one storage/);
    // A heartbeat slower than the idle timeout would let quiet event streams be cut.
    expect(messageOf({ HEARTBEAT_INTERVAL: '30', CONNECTION_TIMEOUT: '20' })).toMatch(
      /HEARTBEAT_INTERVAL="30": must be below CONNECTION_TIMEOUT/,
    );
    expect(messageOf({ HEADERS_TIMEOUT: '60', REQUEST_TIMEOUT: '30' })).toMatch(/HEADERS_TIMEOUT=.*REQUEST_TIMEOUT/);
  });

  it('bounds connections by default, and leaves the per-address cap to the proxy behind one', () => {
    expect(loadConfig({})).toMatchObject({
      timeouts: { idleMs: 30_000, headersMs: 15_000, requestMs: 120_000, keepAliveMs: 72_000 },
      connectionsPerAddress: 256,
    });
    expect(loadConfig({ TRUST_PROXY: '1' }).connectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1', CONNECTIONS_PER_IP: '50' }).connectionsPerAddress).toBe(50);
    expect(loadConfig({ REQUEST_TIMEOUT: '300', HEADERS_TIMEOUT: '5' }).timeouts).toMatchObject({
      requestMs: 300_000,
      headersMs: 5000,
    });
  });

  it('gives each render RENDER_TIMEOUT seconds, and makes test faults only when asked', () => {
    expect(loadConfig({})).toMatchObject({ renderTimeoutMs: 30_000, testFaultAttempts: { crash: 0, hang: 0 } });
    expect(loadConfig({ RENDER_TIMEOUT: '2.5', TEST_CRASH_ATTEMPTS: '1', TEST_HANG_ATTEMPTS: '3' })).toMatchObject({
      renderTimeoutMs: 2500,
      testFaultAttempts: { crash: 1, hang: 3 },
    });
    expect(() => loadConfig({ RENDER_TIMEOUT: '0.5', TEST_HANG_ATTEMPTS: 'always' })).toThrow(
      /RENDER_TIMEOUT="0.5".*\n.*TEST_HANG_ATTEMPTS="always"/,
    );
  });
});

describe('CAMPAIGN_FILE', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'campaign-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  const messageOf = (file: string) => {
    try {
      loadConfig({ CAMPAIGN_FILE: file });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('runs today’s campaign when unset', () => {
    expect(loadConfig({}).campaign).toBe(DEFAULT_CAMPAIGN);
  });

  it('runs the campaign of the file', () => {
    const file = { ...DEFAULT_CAMPAIGN_FILE, brand: { ...DEFAULT_CAMPAIGN_FILE.brand, brand: 'Aurora' } };
    const { campaign } = loadConfig({ CAMPAIGN_FILE: write('c.json', JSON.stringify(file)) });
    expect(campaign.brand.brand).toBe('Aurora');
    expect(campaign.markets).toEqual(DEFAULT_CAMPAIGN.markets);
  });

  it('names a missing file, a file that is not JSON, and every bad field of a campaign', () => {
    const missing = path.join(dir, 'nope.json');
    expect(messageOf(missing)).toBe(
      `Invalid configuration:\n  CAMPAIGN_FILE=${JSON.stringify(missing)}: no such file (${missing})`,
    );
    expect(messageOf(write('broken.json', '{"brand":'))).toMatch(/CAMPAIGN_FILE=.*broken\.json.*: not JSON/);
    const bad = { ...DEFAULT_CAMPAIGN_FILE, theme: { ...DEFAULT_CAMPAIGN_FILE.theme, ink: 'black' }, markets: {} };
    const message = messageOf(write('bad.json', JSON.stringify(bad)));
    expect(message).toContain('theme.ink: expected a colour as #rrggbb');
    expect(message).toContain('markets: needs at least one market');
  });

  it('names a bad campaign together with the bad variables', () => {
    expect(() => loadConfig({ PORT: 'eighty', CAMPAIGN_FILE: write('broken.json', '[') })).toThrow(
      /^Invalid configuration:\n {2}PORT="eighty": .*\n {2}CAMPAIGN_FILE=.*broken\.json.*: not JSON/,
    );
  });
});
