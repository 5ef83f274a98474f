import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, vi } from 'vitest';
import { describeStorageContract } from '../../test/storage-contract.js';
import { DiskStorage } from '../embedded/disk-storage.js';
import { S3Storage } from './s3-storage.js';

describeStorageContract('shared directory', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-storage-'));
  const storage = new DiskStorage(dir);
  await storage.init();
  return { storage, close: async () => rmSync(dir, { recursive: true, force: true }) };
});

/** A real S3-compatible server (s3rver) on a free port, with a bucket per test. */
let s3: S3rver;
let endpoint = '';
let s3Dir = '';

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-s3-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir });
  const { port } = (await s3.run()) as { port: number };
  endpoint = `http://127.0.0.1:${port}`;
  // Credentials reach the SDK the standard way, from the AWS environment (s3rver's fixed test keys).
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
});

afterAll(async () => {
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describeStorageContract('S3 (s3rver)', async () => {
  const bucket = `artworks-${Math.random().toString(36).slice(2, 10)}`;
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
  const storage = new S3Storage({ bucket, endpoint, region: 'us-east-1' });
  return { storage, close: async () => storage.close() };
});
