import type { QueueStatus, ResultResponse } from '@selfie-mosaic/contract';
import { apiBase } from './api-base';
import { apiRequest } from './http';

const jobPath = (jobId: string) => encodeURIComponent(jobId);

export function fetchQueueStatus(jobId: string): Promise<QueueStatus> {
  // The monitor runs its own backoff, so the client's generic retry would only double every request.
  return apiRequest<QueueStatus>(`/api/queue/position/${jobPath(jobId)}`, { retry: 0 });
}

export function fetchResult(jobId: string): Promise<ResultResponse> {
  return apiRequest<ResultResponse>(`/api/result/${jobPath(jobId)}`);
}

export function openQueueStream(jobId: string): EventSource {
  return new EventSource(`${apiBase()}/api/queue/stream/${jobPath(jobId)}`);
}

/** file_path appended to the API base gives the artwork URL (docs/product.md#download-and-share). */
export function artworkUrl(filePath: string): string {
  return `${apiBase()}${filePath}`;
}

/** The same artwork as an attachment: a real link, so it also works where `blob:` links are blocked. */
export function artworkDownloadUrl(imageUrl: string): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}download=1`;
}
