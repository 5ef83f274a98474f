import { type HandoffStatus, isFinalHandoffState } from '@selfie-mosaic/contract';
import type { HandoffEvent, HandoffRecord } from './types.js';

/** What followers are told of a hand-off as stored: the stream's event and the poll's source alike. */
export function handoffEvent(handoff: HandoffRecord): HandoffEvent {
  return {
    handoffId: handoff.id,
    state: handoff.state,
    // An artwork hand-off names its artwork's job until a photo taken on the phone replaces it.
    jobId: handoff.jobId ?? handoff.artworkJobId,
    expiresAt: handoff.state === 'waiting' ? handoff.claimExpiresAt : handoff.followExpiresAt,
  };
}

/**
 * What the desktop sees at `now`: a code that ran out unused, or a hand-off whose follow window ended
 * before a photo arrived, reads `expired` (it is never stored as such: time alone ends it).
 */
export function handoffStatus(event: HandoffEvent, now: number): HandoffStatus {
  const expired = !isFinalHandoffState(event.state) && now >= event.expiresAt;
  return {
    state: expired ? 'expired' : event.state,
    job_id: event.jobId,
    expires_at: new Date(event.expiresAt).toISOString(),
  };
}
