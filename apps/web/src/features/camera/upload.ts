import type { UploadResponse } from '@selfie-mosaic/contract';
import { reportHandoffProgress } from '../../lib/handoff-api';
import { apiRequest } from '../../lib/http';
import { sessionStore } from '../../lib/session';

/**
 * Sends the photo; a refusal rejects with the API's `ApiRequestError` (code and status). A phone that
 * continues a computer's visit names the hand-off, so the computer follows this job too, and tells the
 * computer it is sending (and, if the send fails, that it is back at its camera).
 */
export async function uploadPhoto(photo: Blob, userSessionId: string, blacklabel = false): Promise<UploadResponse> {
  const { handoffId, handoffRole } = sessionStore.getState();
  const handoff = handoffRole === 'phone' ? handoffId : null;
  const form = new FormData();
  // Text fields first: a streaming multipart parser then knows the session before the file arrives.
  form.append('user_session_id', userSessionId);
  form.append('blacklabel', String(blacklabel));
  if (handoff) form.append('handoff_id', handoff);
  form.append('photo', photo, photo instanceof File ? photo.name : 'selfie.jpg');
  if (handoff) reportHandoffProgress(handoff, userSessionId, 'uploading');
  try {
    return await apiRequest<UploadResponse>('/api/upload', { method: 'POST', body: form });
  } catch (error) {
    if (handoff) reportHandoffProgress(handoff, userSessionId, 'connected');
    throw error;
  }
}
