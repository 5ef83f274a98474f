import { HANDOFF, type HandoffState, type HandoffStatus } from '@selfie-mosaic/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCodeOf } from '../api-error';
import { createHandoff, fetchHandoffStatus, openHandoffStream } from '../handoff-api';
import { HandoffMonitor } from '../handoff-monitor';

/** A hand-off as the desktop sees it. `token` is null for one taken up again after a reload: its code is not shown again. */
export interface HandoffOffer {
  handoffId: string;
  token: string | null;
  expiresAt: string;
  /** How long the code lasts, in whole minutes (at least 1), as the server set it: what the panel tells the visitor. */
  minutes: number;
  state: HandoffState;
  jobId: string | null;
}

export type HandoffView =
  | { phase: 'creating' }
  /** The code could not be made: `code` says why, in the error catalogue's words. */
  | { phase: 'failed'; code: string }
  | { phase: 'offered'; offer: HandoffOffer };

export interface UseHandoffOptions {
  userSessionId: string;
  /** A completed job: the code opens its artwork on the phone instead of the photo step. */
  jobId?: string;
  /** A hand-off this page offered before a reload: followed again if a phone is on it, else a new code is made. */
  resumeId?: string | null;
  /** States after which nothing this screen shows can change: following stops there. */
  stopAt?: readonly HandoffState[];
  onCreated?(offer: HandoffOffer): void;
  onStatus?(offer: HandoffOffer): void;
}

/** A phone is on this hand-off, or has sent its photo: worth following again rather than replacing. */
const PHONE_ON_IT: readonly HandoffState[] = ['connected', 'uploading', 'submitted'];

/**
 * Makes a hand-off code for this session and follows it live. `renew` makes a fresh code (after one ran
 * out, or a failure). A code still waiting when its time is up is shown as run out at once, without
 * waiting for the server to say so.
 */
export function useHandoff(options: UseHandoffOptions): { view: HandoffView; renew(): void } {
  const { userSessionId, jobId, resumeId } = options;
  const [view, setView] = useState<HandoffView>({ phase: 'creating' });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    let current = true;
    let monitor: HandoffMonitor | null = null;
    const show = (offer: HandoffOffer) => {
      if (!current) return;
      setView({ phase: 'offered', offer });
      latest.current.onStatus?.(offer);
    };
    const follow = (offer: HandoffOffer) => {
      const stopAt = latest.current.stopAt ?? [];
      if (stopAt.includes(offer.state)) return;
      const next = new HandoffMonitor(
        offer.handoffId,
        { openStream: openHandoffStream, fetchStatus: fetchHandoffStatus },
        {
          onStatus: (status: HandoffStatus) => {
            offer = { ...offer, state: status.state, jobId: status.job_id, expiresAt: status.expires_at };
            show(offer);
            if (stopAt.includes(status.state)) next.stop();
          },
          // The server forgot it (it ended long ago): for this screen it has simply run out.
          onGone: () => show({ ...offer, state: 'expired' }),
        },
      );
      monitor = next;
      next.start();
    };

    const start = async () => {
      setView({ phase: 'creating' });
      if (attempt === 0 && resumeId) {
        const status = await fetchHandoffStatus(resumeId).catch(() => null);
        if (!current) return;
        if (status && PHONE_ON_IT.includes(status.state)) {
          const offer = {
            handoffId: resumeId,
            token: null,
            expiresAt: status.expires_at,
            minutes: minutesLeft(status.expires_at),
            ...stateOf(status),
          };
          show(offer);
          follow(offer);
          return;
        }
      }
      try {
        const created = await createHandoff(userSessionId, jobId);
        if (!current) return;
        const offer: HandoffOffer = {
          handoffId: created.handoff_id,
          token: created.token,
          expiresAt: created.expires_at,
          minutes: minutesLeft(created.expires_at),
          state: 'waiting',
          jobId: null,
        };
        latest.current.onCreated?.(offer);
        show(offer);
        follow(offer);
      } catch (error) {
        if (current) setView({ phase: 'failed', code: errorCodeOf(error) ?? 'internal' });
      }
    };
    void start();
    return () => {
      current = false;
      monitor?.stop();
    };
  }, [attempt, userSessionId, jobId, resumeId]);

  // A code nobody opened in time cannot be opened any more: say so when its time is up.
  const waitingUntil = view.phase === 'offered' && view.offer.state === 'waiting' ? view.offer.expiresAt : null;
  useEffect(() => {
    if (!waitingUntil) return;
    const timer = setTimeout(
      () =>
        setView((shown) =>
          shown.phase === 'offered' && shown.offer.state === 'waiting'
            ? { phase: 'offered', offer: { ...shown.offer, state: 'expired' } }
            : shown,
        ),
      timeLeft(waitingUntil),
    );
    return () => clearTimeout(timer);
  }, [waitingUntil]);

  const renew = useCallback(() => setAttempt((count) => count + 1), []);
  return { view, renew };
}

/**
 * Until the code runs out, by this computer's clock. A clock so far off that the time left makes no sense
 * (already past, or longer than any code lasts) falls back to a code's usual life, and the server's word.
 */
function timeLeft(expiresAt: string): number {
  const left = Date.parse(expiresAt) - Date.now();
  return left > 0 && left <= HANDOFF.followMs ? left : HANDOFF.claimMs;
}

function minutesLeft(expiresAt: string): number {
  return Math.max(1, Math.round(timeLeft(expiresAt) / 60_000));
}

function stateOf(status: HandoffStatus): Pick<HandoffOffer, 'state' | 'jobId'> {
  return { state: status.state, jobId: status.job_id };
}
