import { API_ERRORS, ApiError } from '@selfie-mosaic/contract';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { faultError, StorageHealth, storageFault } from './storage-health.js';

const coded = (code: string) => Object.assign(new Error(code), { code });

it('tells a full or read-only storage from other failures', () => {
  expect(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'].map((code) => storageFault(coded(code)))).toEqual(
    Array(4).fill('storageFull'),
  );
  expect(
    ['EROFS', 'SQLITE_BUSY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_IOERR_WRITE', '25006'].map((code) =>
      storageFault(coded(code)),
    ),
  ).toEqual(Array(5).fill('notReady'));
  expect([coded('ENOENT'), new Error('bug'), null, 'text'].map(storageFault)).toEqual(Array(4).fill(undefined));
});

it('tells a database or Redis that cannot be reached, by code or by the words its client throws', () => {
  const unreachable = [
    coded('ECONNREFUSED'),
    coded('ECONNRESET'),
    coded('57P01'),
    coded('08006'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Connection is closed.'),
    new Error(
      'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
    ),
    new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]),
  ];
  expect(unreachable.map(storageFault)).toEqual(Array(unreachable.length).fill('unreachable'));
  // What a visitor's request gets meanwhile: 503 and when to try again.
  expect(faultError('unreachable')).toMatchObject({
    statusCode: 503,
    code: 'notReady',
    headers: { 'retry-after': '5' },
  });
  expect(faultError('storageFull')).toMatchObject({ statusCode: 507, headers: { 'retry-after': '60' } });
});

it('refuses at once while writes fail, and resumes by itself once a probe write succeeds', async () => {
  let spaceReturned = false;
  let recovered = 0;
  const health = new StorageHealth({
    log: Fastify({ logger: false }).log,
    probeIntervalMs: 20,
    probe: async () => {
      if (!spaceReturned) throw coded('ENOSPC');
    },
    onRecovered: () => recovered++,
  });
  expect(health.report(coded('ENOENT'))).toBeUndefined();
  expect(health.current).toBeUndefined();

  expect(health.report(coded('SQLITE_FULL'))).toBe('storageFull');
  expect(() => health.assertWritable()).toThrow(new ApiError('storageFull', undefined, { 'retry-after': '60' }));
  expect(API_ERRORS.storageFull.status).toBe(507);
  let waited = false;
  const wait = health.whenWritable().then(() => {
    waited = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(waited).toBe(false);

  spaceReturned = true;
  await wait;
  expect(health.current).toBeUndefined();
  expect(recovered).toBe(1);
  health.assertWritable();
  health.close();
});
