import { isJobId, isResultToken } from '@selfie-mosaic/contract';

/**
 * How photos and artworks are named in storage, the same in a folder and in a bucket:
 * `photos/<job id>` and `results/<token>.jpg`. Every name is checked, so none can escape its folder.
 */
export const PHOTOS_FOLDER = 'photos';
export const RESULTS_FOLDER = 'results';

const RESULT_FILE = /^([0-9a-f]+)\.jpg$/;

/** A photo is stored under its job id. */
export function photoName(jobId: string): string {
  if (!isJobId(jobId)) throw new Error(`Expected a job id as the photo key but received ${jobId}`);
  return jobId;
}

export function resultFileName(token: string): string {
  if (!isResultToken(token)) throw new Error(`Expected a result token but received ${token}`);
  return `${token}.jpg`;
}

/** The job id a stored photo's name stands for, if it is one. */
export function jobIdOfPhotoName(name: string): string | undefined {
  return isJobId(name) ? name : undefined;
}

/** The token a stored artwork's name (or the last part of its address) stands for, if it is one. */
export function tokenOfResultFileName(name: string): string | undefined {
  const token = RESULT_FILE.exec(name)?.[1];
  return token !== undefined && isResultToken(token) ? token : undefined;
}
