import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { createResultToken, isResultToken } from '@selfie-mosaic/contract';
import { PHOTOS, RESULT_FILES, RESULTS, type ResultFile, resultFileName, type StoredKind } from '../storage-names.js';
import type { FileStorage, StoredEntry, StoredFile } from '../types.js';

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, Ceph, R2…); unset for AWS itself. */
  endpoint?: string;
  region?: string;
  /** Credentials come from the standard AWS environment (AWS_ACCESS_KEY_ID…) unless given here. */
  credentials?: S3ClientConfig['credentials'];
}

/**
 * Photos and artworks as objects in an S3-compatible bucket, reachable from every API process. A PUT is
 * all or nothing (S3 stores no object from a failed or cut-short request), so there are no partial writes.
 */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  async savePhoto(jobId: string, bytes: Buffer): Promise<string> {
    await this.put(photoKey(jobId), bytes, 'application/octet-stream');
    return jobId;
  }

  async readPhoto(key: string): Promise<Buffer> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: photoKey(key) }));
    return Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  }

  async deletePhoto(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: photoKey(key) }));
  }

  async saveResult(post: Buffer, story?: Buffer, plan?: Buffer): Promise<string> {
    const token = createResultToken();
    try {
      if (story) await this.put(resultKey(token, 'story'), story, 'image/jpeg');
      if (plan) await this.put(resultKey(token, 'plan'), plan, 'application/octet-stream');
      await this.put(resultKey(token, 'post'), post, 'image/jpeg');
    } catch (error) {
      await this.deleteResult(token).catch(() => {});
      throw error;
    }
    return token;
  }

  async openResult(token: string, file: ResultFile = 'post'): Promise<StoredFile | undefined> {
    if (!isResultToken(token)) return undefined;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: resultKey(token, file) }));
      return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async deleteResult(token: string): Promise<void> {
    await Promise.all(
      RESULT_FILES.map((file) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: resultKey(token, file) })),
      ),
    );
  }

  listPhotos(): AsyncIterable<StoredEntry[]> {
    return this.list(PHOTOS);
  }

  listResults(): AsyncIterable<StoredEntry[]> {
    return this.list(RESULTS);
  }

  async removePartials(): Promise<number> {
    return 0;
  }

  async probe(): Promise<void> {
    const key = `probes/${randomBytes(8).toString('hex')}`;
    try {
      await this.put(key, Buffer.alloc(1024), 'application/octet-stream');
    } finally {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(() => {});
    }
  }

  close(): void {
    this.client.destroy();
  }

  /** The objects of one kind, a page at a time. */
  private async *list(kind: StoredKind): AsyncIterable<StoredEntry[]> {
    const prefix = `${kind.folder}/`;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      const entries: StoredEntry[] = [];
      for (const object of page.Contents ?? []) {
        const key = kind.keyOf((object.Key ?? '').slice(prefix.length));
        if (key) entries.push({ key, modifiedAt: object.LastModified?.getTime() ?? 0 });
      }
      yield entries;
    }
  }

  private async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }
}

function objectKey(kind: StoredKind, key: string): string {
  return `${kind.folder}/${kind.nameOf(key)}`;
}

const photoKey = (jobId: string) => objectKey(PHOTOS, jobId);
const resultKey = (token: string, file: ResultFile) => `${RESULTS.folder}/${resultFileName(token, file)}`;
