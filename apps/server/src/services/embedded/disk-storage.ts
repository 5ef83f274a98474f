import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, opendir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createResultToken, isResultToken } from '@selfie-mosaic/contract';
import { PHOTOS, RESULT_FILES, RESULTS, type ResultFile, resultFileName } from '../storage-names.js';
import type { FileStorage, StoredEntry, StoredFile } from '../types.js';

/** Entries per page when listing (reconciliation). */
const PAGE = 500;
/** The health probe writes this much, about a photo and an artwork: less could pass and then fail again. */
const PROBE_BYTES = 1024 * 1024;

/**
 * Photos and artworks as files under DATA_DIR (or a shared STORAGE_DIR); names are validated so no path
 * can escape the folders. Every file is written under a random name in `tmp/` and renamed into place,
 * so `photos/` and `results/` only ever hold complete files: a failed write removes its partial file,
 * and one cut short by a crash stays in `tmp/` until `removePartials`.
 */
export class DiskStorage implements FileStorage {
  private readonly photos: string;
  private readonly results: string;
  private readonly partials: string;

  constructor(dataDir: string) {
    this.photos = path.join(dataDir, PHOTOS.folder);
    this.results = path.join(dataDir, RESULTS.folder);
    this.partials = path.join(dataDir, 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.photos, { recursive: true });
    await mkdir(this.results, { recursive: true });
    await mkdir(this.partials, { recursive: true });
  }

  async savePhoto(jobId: string, bytes: Buffer): Promise<string> {
    await this.writeAtomically(this.photoPath(jobId), bytes);
    return jobId;
  }

  async readPhoto(key: string): Promise<Buffer> {
    return readFile(this.photoPath(key));
  }

  async deletePhoto(key: string): Promise<void> {
    await rm(this.photoPath(key), { force: true });
  }

  async saveResult(post: Buffer, story?: Buffer, plan?: Buffer): Promise<string> {
    const token = createResultToken();
    try {
      if (story) await this.writeAtomically(this.resultPath(token, 'story'), story);
      if (plan) await this.writeAtomically(this.resultPath(token, 'plan'), plan);
      await this.writeAtomically(this.resultPath(token, 'post'), post);
    } catch (error) {
      await this.deleteResult(token).catch(() => {});
      throw error;
    }
    return token;
  }

  async openResult(token: string, file: ResultFile = 'post'): Promise<StoredFile | undefined> {
    if (!isResultToken(token)) return undefined;
    const filePath = this.resultPath(token, file);
    try {
      const { size } = await stat(filePath);
      return { stream: createReadStream(filePath), size };
    } catch {
      return undefined;
    }
  }

  async deleteResult(token: string): Promise<void> {
    await Promise.all(RESULT_FILES.map((file) => rm(this.resultPath(token, file), { force: true })));
  }

  listPhotos(): AsyncIterable<StoredEntry[]> {
    return listFolder(this.photos, PHOTOS.keyOf);
  }

  listResults(): AsyncIterable<StoredEntry[]> {
    return listFolder(this.results, RESULTS.keyOf);
  }

  async removePartials(before: number): Promise<number> {
    let removed = 0;
    for await (const page of listFolder(this.partials, (name) => name)) {
      for (const entry of page) {
        if (entry.modifiedAt >= before) continue;
        await rm(path.join(this.partials, entry.key), { force: true });
        removed++;
      }
    }
    return removed;
  }

  async probe(): Promise<void> {
    const file = path.join(this.partials, `probe-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(file, Buffer.alloc(PROBE_BYTES));
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Writes under a temporary name, then renames: readers and listings never see a partial file. */
  private async writeAtomically(target: string, bytes: Buffer): Promise<void> {
    const partial = path.join(this.partials, randomBytes(16).toString('hex'));
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, target);
    } catch (error) {
      // A full disk or a read-only remount: what was written so far goes, the error is the caller's.
      await rm(partial, { force: true }).catch(() => {});
      throw error;
    }
  }

  private photoPath(key: string): string {
    return path.join(this.photos, PHOTOS.nameOf(key));
  }

  private resultPath(token: string, file: ResultFile): string {
    return path.join(this.results, resultFileName(token, file));
  }
}

/** The folder's files whose name `keyOf` accepts, with their write times, a page at a time. */
async function* listFolder(dir: string, keyOf: (name: string) => string | undefined): AsyncIterable<StoredEntry[]> {
  let names: string[] = [];
  const statPage = async (page: string[]): Promise<StoredEntry[]> => {
    const entries = await Promise.all(
      page.map(async (name) => {
        // A file deleted between the listing and its stat (the runner finished the job) is simply gone.
        const info = await stat(path.join(dir, name)).catch(() => undefined);
        const key = keyOf(name);
        return info && key ? { key, modifiedAt: info.mtimeMs } : undefined;
      }),
    );
    return entries.filter((entry): entry is StoredEntry => entry !== undefined);
  };
  for await (const entry of await opendir(dir)) {
    if (!entry.isFile()) continue;
    names.push(entry.name);
    if (names.length >= PAGE) {
      yield await statPage(names);
      names = [];
    }
  }
  if (names.length > 0) yield await statPage(names);
}
