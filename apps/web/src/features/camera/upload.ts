import type { UploadResponse } from '@selfie-mosaic/contract';
import { apiRequest } from '../../lib/http';

/** Sends the photo; a refusal rejects with the API's `ApiRequestError` (code and status). */
export function uploadPhoto(photo: Blob, userSessionId: string, blacklabel = false): Promise<UploadResponse> {
  const form = new FormData();
  // Text fields first: a streaming multipart parser then knows the session before the file arrives.
  form.append('user_session_id', userSessionId);
  form.append('blacklabel', String(blacklabel));
  form.append('photo', photo, photo instanceof File ? photo.name : 'selfie.jpg');
  return apiRequest<UploadResponse>('/api/upload', { method: 'POST', body: form });
}
