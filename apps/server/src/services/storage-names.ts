import { ARTWORK_FORMATS, isJobId, isResultToken } from '@selfie-mosaic/contract';

/**
 * One kind of stored file, named the same in a folder and in a bucket: `photos/<job id>` and
 * `results/<token>.jpg`. Every name is checked, so none can escape its folder.
 */
export interface StoredKind {
  folder: string;
  /** The file name a key is stored under; throws for anything that is not a key. */
  nameOf(key: string): string;
  /** The key a stored file name stands for, if it is one. */
  keyOf(name: string): string | undefined;
}

/** A photo is stored under its job id. */
export const PHOTOS: StoredKind = {
  folder: 'photos',
  nameOf(jobId) {
    if (!isJobId(jobId)) throw new Error(`Expected a job id as the photo key but received ${jobId}`);
    return jobId;
  },
  keyOf: (name) => (isJobId(name) ? name : undefined),
};

/** The files of one artwork: its two pictures and the laying plan of both. */
export const RESULT_FILES = [...ARTWORK_FORMATS, 'plan'] as const;
export type ResultFile = (typeof RESULT_FILES)[number];

const RESULT_FILE = /^([0-9a-f]+)(?:(\.story)?\.jpg|(\.plan))$/;

/**
 * An artwork is stored under its result token, in three files: `<token>.jpg` (the 4:5 post),
 * `<token>.story.jpg` (the 9:16 story version) and `<token>.plan` (their laying plan, gzip); their
 * addresses end in the same names. The files stand for the one token, which is the key.
 */
export const RESULTS: StoredKind = {
  folder: 'results',
  nameOf: (token) => resultFileName(token, 'post'),
  keyOf: (name) => parseResultFileName(name)?.token,
};

export function resultFileName(token: string, file: ResultFile): string {
  if (!isResultToken(token)) throw new Error(`Expected a result token but received ${token}`);
  if (file === 'plan') return `${token}.plan`;
  return file === 'story' ? `${token}.story.jpg` : `${token}.jpg`;
}

export function parseResultFileName(name: string): { token: string; file: ResultFile } | undefined {
  const match = RESULT_FILE.exec(name);
  const token = match?.[1];
  if (token === undefined || !isResultToken(token)) return undefined;
  return { token, file: match?.[3] ? 'plan' : match?.[2] ? 'story' : 'post' };
}
