import { isJobId, isResultToken } from '@selfie-mosaic/contract';

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

const RESULT_FILE = /^([0-9a-f]+)\.jpg$/;

/** An artwork is stored under its result token; its address ends in the same name. */
export const RESULTS: StoredKind = {
  folder: 'results',
  nameOf(token) {
    if (!isResultToken(token)) throw new Error(`Expected a result token but received ${token}`);
    return `${token}.jpg`;
  },
  keyOf(name) {
    const token = RESULT_FILE.exec(name)?.[1];
    return token !== undefined && isResultToken(token) ? token : undefined;
  },
};
