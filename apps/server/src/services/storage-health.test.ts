import { API_ERRORS, ApiError } from '@selfie-mosaic/contract';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { StorageHealth, storageFault } from './storage-health.js';

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
  expect(() => health.assertWritable()).toThrow(new ApiError('storageFull'));
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
