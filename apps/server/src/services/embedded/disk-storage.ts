import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage, StoredFile } from '../types.js';

const TOKEN = /^[0-9a-f]{32}$/;
const JOB_ID = /^[0-9a-f-]{36}$/;

/** Photos and artworks as files under DATA_DIR; names are validated so no path can escape the folders. */
export class DiskStorage implements FileStorage {
  private readonly photos: string;
  private readonly results: string;

  constructor(dataDir: string) {
    this.photos = path.join(dataDir, 'photos');
    this.results = path.join(dataDir, 'results');
  }

  async init(): Promise<void> {
    await mkdir(this.photos, { recursive: true });
    await mkdir(this.results, { recursive: true });
  }

  async savePhoto(jobId: string, bytes: Buffer): Promise<string> {
    if (!JOB_ID.test(jobId)) throw new Error(`Expected a job id for savePhoto but received ${jobId}`);
    await writeFile(path.join(this.photos, jobId), bytes);
    return jobId;
  }

  async readPhoto(key: string): Promise<Buffer> {
    return readFile(this.photoPath(key));
  }

  async deletePhoto(key: string): Promise<void> {
    await rm(this.photoPath(key), { force: true });
  }

  async saveResult(bytes: Buffer): Promise<string> {
    const token = randomBytes(16).toString('hex');
    await writeFile(this.resultPath(token), bytes);
    return token;
  }

  async openResult(token: string): Promise<StoredFile | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const file = this.resultPath(token);
    try {
      const { size } = await stat(file);
      return { stream: createReadStream(file), size };
    } catch {
      return undefined;
    }
  }

  async deleteResult(token: string): Promise<void> {
    await rm(this.resultPath(token), { force: true });
  }

  private photoPath(key: string): string {
    if (!JOB_ID.test(key)) throw new Error(`Expected a photo key but received ${key}`);
    return path.join(this.photos, key);
  }

  private resultPath(token: string): string {
    if (!TOKEN.test(token)) throw new Error(`Expected a result token but received ${token}`);
    return path.join(this.results, `${token}.jpg`);
  }
}
