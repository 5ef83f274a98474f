import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
      maxAttempts: 3,
      resultTtlMs: 24 * 60 * 60 * 1000,
      heartbeatMs: 15_000,
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/mosaic',
      WORKERS: '4',
      QUEUE_LIMIT: '50',
      STREAM_LIMIT: '100',
      POLL_LIMIT: '500',
      RATE_LIMIT_WINDOW: '30',
      RATE_LIMIT_CONSENT: '5',
      RATE_LIMIT_UPLOAD: '2',
      RESULT_TTL: '3600',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/mosaic',
      workers: 4,
      queueLimit: 50,
      streamLimit: 100,
      pollLimit: 500,
      rateLimit: { windowMs: 30_000, consent: 5, upload: 2 },
      resultTtlMs: 3_600_000,
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
      loadConfig({ PORT: 'eighty', WORKERS: '0', LOG_LEVEL: 'loud', QUEUE_LIMIT: '10' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('WORKERS="0"');
    expect(message).toContain('LOG_LEVEL="loud"');
    expect(message).not.toContain('QUEUE_LIMIT');
  });
});
