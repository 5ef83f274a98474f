import type {
  HandoffClaimResponse,
  HandoffCreateResponse,
  HandoffProgressRequest,
  HandoffStatus,
} from '@selfie-mosaic/contract';
import { apiBase } from './api-base';
import { apiRequest } from './http';

/** The hand-off endpoints (desktop → phone) over the app's HTTP client. */

const handoffPath = (handoffId: string) => `/api/handoff/${encodeURIComponent(handoffId)}`;

/** A code for this session: the photo step on the phone, or with `jobId` that job's artwork. */
export function createHandoff(userSessionId: string, jobId?: string): Promise<HandoffCreateResponse> {
  return apiRequest<HandoffCreateResponse>('/api/handoff', {
    method: 'POST',
    body: jobId ? { user_session_id: userSessionId, job_id: jobId } : { user_session_id: userSessionId },
  });
}

/** The phone opens the code: single use, so a claim is never sent twice for one token. */
export function claimHandoff(token: string): Promise<HandoffClaimResponse> {
  return apiRequest<HandoffClaimResponse>('/api/handoff/claim', { method: 'POST', body: { token } });
}

export function fetchHandoffStatus(handoffId: string): Promise<HandoffStatus> {
  // The follower runs its own backoff, so the client's generic retry would only double every request.
  return apiRequest<HandoffStatus>(handoffPath(handoffId), { retry: 0 });
}

export function openHandoffStream(handoffId: string): EventSource {
  return new EventSource(`${apiBase()}${handoffPath(handoffId)}/stream`);
}

/**
 * The phone tells the desktop it is sending its photo, or is back at its camera after a failed send.
 * Only the desktop's words depend on it, so a failure is let go: the photo matters, not this.
 */
export function reportHandoffProgress(
  handoffId: string,
  userSessionId: string,
  state: HandoffProgressRequest['state'],
): void {
  const body: HandoffProgressRequest = { user_session_id: userSessionId, state };
  void apiRequest(`${handoffPath(handoffId)}/state`, { method: 'POST', body }).catch(() => undefined);
}
