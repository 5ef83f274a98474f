import { HANDOFF_STATES, type HandoffState, type HandoffStatus, isFinalHandoffState } from '@selfie-mosaic/contract';
import { OVERLOADED, StreamFollower, type StreamLike, statusOf, type Timers } from './stream-follower';

export interface HandoffMonitorDeps {
  openStream(handoffId: string): StreamLike;
  fetchStatus(handoffId: string): Promise<HandoffStatus>;
  timers?: Timers;
}

export interface HandoffMonitorHandlers {
  onStatus(status: HandoffStatus): void;
  /** The server no longer knows the hand-off (404): nothing more can come of it. */
  onGone(): void;
  onServerLoad?(loaded: boolean): void;
}

function isHandoffState(value: unknown): value is HandoffState {
  return (HANDOFF_STATES as readonly unknown[]).includes(value);
}

/**
 * One stream message as a hand-off status. Under load the server may send the job stream's
 * `{"status":"error"}` instead, which sends the follower to polling; anything else is ignored.
 */
export function parseHandoffStatus(data: unknown): HandoffStatus | typeof OVERLOADED | null {
  if (typeof data !== 'string') return null;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (value.status === 'error') return OVERLOADED;
  if (!isHandoffState(value.state)) return null;
  return {
    state: value.state,
    job_id: typeof value.job_id === 'string' ? value.job_id : null,
    expires_at: typeof value.expires_at === 'string' ? value.expires_at : '',
  };
}

/**
 * Follows one hand-off the way a job is followed (stream, then polling with backoff) until the phone's
 * photo is submitted, the hand-off expires, or the server forgets it.
 */
export class HandoffMonitor {
  private readonly follower: StreamFollower<HandoffStatus>;

  constructor(
    readonly handoffId: string,
    deps: HandoffMonitorDeps,
    handlers: HandoffMonitorHandlers,
  ) {
    this.follower = new StreamFollower<HandoffStatus>(
      {
        openStream: () => deps.openStream(handoffId),
        fetchStatus: () => deps.fetchStatus(handoffId),
        parse: parseHandoffStatus,
        isFinal: (status) => isFinalHandoffState(status.state),
        isFatal: (error) => statusOf(error) === 404,
      },
      {
        onStatus: handlers.onStatus,
        onServerLoad: (loaded) => handlers.onServerLoad?.(loaded),
        onFatal: handlers.onGone,
      },
      deps.timers,
    );
  }

  get active(): boolean {
    return this.follower.active;
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
  }
}
