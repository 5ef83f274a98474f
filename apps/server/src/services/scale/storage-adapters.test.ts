import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTWORK, RESULT_TTL_MS } from '@selfie-mosaic/contract';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { facePhoto } from '../../test/fixtures.js';
import { Client, modeEnv, startTestServer } from '../../test/harness.js';
import { describeStorageContract } from '../../test/storage-contract.js';
import { DiskStorage } from '../embedded/disk-storage.js';
import { RESULTS } from '../storage-names.js';
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
let savedCredentials: { id: string | undefined; secret: string | undefined } = { id: undefined, secret: undefined };

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-s3-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir });
  const { port } = (await s3.run()) as { port: number };
  endpoint = `http://127.0.0.1:${port}`;
  // Credentials reach the SDK the standard way, from the AWS environment (s3rver's fixed test keys).
  savedCredentials = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
});

afterAll(async () => {
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
  restoreEnv('AWS_ACCESS_KEY_ID', savedCredentials.id);
  restoreEnv('AWS_SECRET_ACCESS_KEY', savedCredentials.secret);
});

async function newBucket(): Promise<string> {
  const bucket = `artworks-${Math.random().toString(36).slice(2, 10)}`;
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
  return bucket;
}

describeStorageContract('S3 (s3rver)', async () => {
  const storage = new S3Storage({ bucket: await newBucket(), endpoint, region: 'us-east-1' });
  return { storage, close: async () => storage.close() };
});

it('serves an artwork that a scale-mode server rendered into an S3 bucket', async () => {
  const bucket = await newBucket();
  const server = await startTestServer({ ...(await modeEnv('scale')), S3_BUCKET: bucket, S3_ENDPOINT: endpoint });
  const bucketView = new S3Storage({ bucket, endpoint, region: 'us-east-1' });
  try {
    const client = await new Client(server.url).init();
    const jobId = await client.submit(await facePhoto());
    expect((await client.waitUntilFinal(jobId)).status).toBe('completed');
    const { file_path: filePath } = (await (await client.get(`/api/result/${jobId}`)).json()) as { file_path: string };
    const file = await fetch(`${server.url}${filePath}`);
    expect(file.status).toBe(200);
    const jpeg = Buffer.from(await file.arrayBuffer());
    expect(Number(file.headers.get('content-length'))).toBe(jpeg.length);
    expect(await sharp(jpeg).metadata()).toMatchObject({
      format: 'jpeg',
      width: ARTWORK.width,
      height: ARTWORK.height,
    });
    const token = RESULTS.keyOf(path.posix.basename(filePath)) ?? '';
    expect((await bucketView.openResult(token))?.size).toBe(jpeg.length);
    // Retention works on the bucket too: once swept, the artwork is gone.
    await server.app.services.sweep(Date.now() + RESULT_TTL_MS + 60 * 60 * 1000);
    expect((await fetch(`${server.url}${filePath}`)).status).toBe(404);
    expect(await bucketView.openResult(token)).toBeUndefined();
  } finally {
    bucketView.close();
    await server.stop();
  }
});
