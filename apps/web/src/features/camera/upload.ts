import { MESSAGES, type UploadResponse } from '@selfie-mosaic/contract';
import { apiRequest } from '../../lib/http';

/** Carries the message to show: the server's `error` field if present, else "Failed to upload photo". */
export class UploadError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'UploadError';
  }
}

export function uploadErrorMessage(error: unknown): string {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  const serverMessage = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  return typeof serverMessage === 'string' && serverMessage.trim() ? serverMessage : MESSAGES.uploadFailed;
}

export async function uploadPhoto(photo: Blob, userSessionId: string, blacklabel = false): Promise<UploadResponse> {
  const form = new FormData();
  // Text fields first: a streaming multipart parser then knows the session before the file arrives.
  form.append('user_session_id', userSessionId);
  form.append('blacklabel', String(blacklabel));
  form.append('photo', photo, photo instanceof File ? photo.name : 'selfie.jpg');
  try {
    return await apiRequest<UploadResponse>('/api/upload', { method: 'POST', body: form });
  } catch (error) {
    throw new UploadError(uploadErrorMessage(error), error);
  }
}
