import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { RESULT_TOKEN_PATTERN } from '@selfie-mosaic/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStorage, StoredEntry } from '../services/types.js';

async function all(pages: AsyncIterable<StoredEntry[]>): Promise<StoredEntry[]> {
  const entries: StoredEntry[] = [];
  for await (const page of pages) entries.push(...page);
  return entries;
}

export interface StorageUnderTest {
  storage: FileStorage;
  close(): Promise<void>;
}

/** Behaviour every FileStorage adapter must show: photos in and out, artworks under fresh random tokens. */
export function describeStorageContract(name: string, factory: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.close();
    });

    it('keeps a photo under its job id until it is deleted', async () => {
      const jobId = randomUUID();
      const key = await subject.storage.savePhoto(jobId, Buffer.from('photo bytes'));
      expect((await subject.storage.readPhoto(key)).toString()).toBe('photo bytes');
      await subject.storage.deletePhoto(key);
      await expect(subject.storage.readPhoto(key)).rejects.toThrow();
      // Deleting twice is harmless (the sweeper and the runner may both try).
      await subject.storage.deletePhoto(key);
    });

    it('stores an artwork under a fresh 128-bit token and streams it back with its size', async () => {
      const first = await subject.storage.saveResult(Buffer.from('artwork one'));
      const second = await subject.storage.saveResult(Buffer.from('artwork one'));
      expect(first).toMatch(RESULT_TOKEN_PATTERN);
      expect(second).not.toBe(first);
      const file = await subject.storage.openResult(first);
      expect(file?.size).toBe(11);
      expect(await text(file?.stream as NodeJS.ReadableStream)).toBe('artwork one');
      await subject.storage.deleteResult(first);
      expect(await subject.storage.openResult(first)).toBeUndefined();
      const kept = await subject.storage.openResult(second);
      expect(kept?.size).toBe(11);
      expect(await text(kept?.stream as NodeJS.ReadableStream)).toBe('artwork one');
    });

    it('keeps the story version and the laying plan beside the artwork under the same token, and deletes them together', async () => {
      const token = await subject.storage.saveResult(
        Buffer.from('the 4:5 post'),
        Buffer.from('the 9:16 story'),
        Buffer.from('the laying plan'),
      );
      expect(await text((await subject.storage.openResult(token))?.stream as NodeJS.ReadableStream)).toBe(
        'the 4:5 post',
      );
      const story = await subject.storage.openResult(token, 'story');
      expect(story?.size).toBe(14);
      expect(await text(story?.stream as NodeJS.ReadableStream)).toBe('the 9:16 story');
      expect(await text((await subject.storage.openResult(token, 'plan'))?.stream as NodeJS.ReadableStream)).toBe(
        'the laying plan',
      );
      expect(new Set((await all(subject.storage.listResults())).map((entry) => entry.key))).toEqual(new Set([token]));
      await subject.storage.deleteResult(token);
      expect(await subject.storage.openResult(token)).toBeUndefined();
      expect(await subject.storage.openResult(token, 'story')).toBeUndefined();
      expect(await subject.storage.openResult(token, 'plan')).toBeUndefined();
      expect(await all(subject.storage.listResults())).toEqual([]);
    });

    it('lists its photos and artworks with when they were written, for reconciliation with the records', async () => {
      const jobId = randomUUID();
      await subject.storage.savePhoto(jobId, Buffer.from('photo bytes'));
      const token = await subject.storage.saveResult(Buffer.from('artwork'));
      const photos = await all(subject.storage.listPhotos());
      const results = await all(subject.storage.listResults());
      expect(photos.map((entry) => entry.key)).toEqual([jobId]);
      expect(results.map((entry) => entry.key)).toEqual([token]);
      // Write times are the storage's clock (S3: whole seconds): close to now, not exact.
      for (const entry of [...photos, ...results]) expect(Math.abs(entry.modifiedAt - Date.now())).toBeLessThan(60_000);
      await subject.storage.deletePhoto(jobId);
      await subject.storage.deleteResult(token);
      expect(await all(subject.storage.listPhotos())).toEqual([]);
      expect(await all(subject.storage.listResults())).toEqual([]);
    });

    it('probes a write and leaves nothing behind; removing partial writes keeps whole files', async () => {
      const jobId = randomUUID();
      await subject.storage.savePhoto(jobId, Buffer.from('photo bytes'));
      await subject.storage.probe();
      expect(await subject.storage.removePartials(Date.now() + 60_000)).toBe(0);
      expect((await all(subject.storage.listPhotos())).map((entry) => entry.key)).toEqual([jobId]);
      expect(await all(subject.storage.listResults())).toEqual([]);
    });

    it('refuses names that could escape its folders and finds nothing for unknown tokens', async () => {
      await expect(subject.storage.savePhoto('../../etc/passwd', Buffer.from('x'))).rejects.toThrow(/job id/);
      expect(await subject.storage.openResult('../secret')).toBeUndefined();
      expect(await subject.storage.openResult('0'.repeat(32))).toBeUndefined();
    });
  });
}
