import type { ServerResponse } from 'node:http';
import { isFinalHandoffState } from '@selfie-mosaic/contract';
import type { EventStream, EventStreams } from './event-streams.js';
import { handoffEvent, handoffStatus } from './handoff-status.js';
import type { Backend, HandoffEvent } from './types.js';

interface OpenHandoffStream {
  handoffId: string;
  out: EventStream;
  /** Hand-off events received; a store read that started before one arrived is stale. */
  eventsSeen: number;
  /** Sends `expired` when the current window (the code's, then the follow window) runs out. */
  expiry: NodeJS.Timeout | undefined;
}

/** Fans hand-off changes out to the desktops following them, across processes through `StatusEvents`. */
export class HandoffStreams {
  private readonly streams = new Set<OpenHandoffStream>();

  constructor(
    private readonly backend: Backend,
    private readonly eventStreams: EventStreams,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes over the response: the caller must have checked that the hand-off exists. */
  async open(raw: ServerResponse, handoffId: string): Promise<void> {
    const out = this.eventStreams.open(raw);
    if (!out) return;
    const stream: OpenHandoffStream = { handoffId, out, eventsSeen: 0, expiry: undefined };
    this.streams.add(stream);
    // Subscribe before the first read so no change can slip between the two.
    const unsubscribe = this.backend.events.subscribeHandoff(handoffId, (event) => {
      stream.eventsSeen++;
      this.send(stream, event);
    });
    out.onDrop = () => {
      this.streams.delete(stream);
      clearTimeout(stream.expiry);
      unsubscribe();
    };
    out.resync = () => void this.refresh(stream);
    // A desktop's stream is often its process's first, and the phone's claim can follow within moments on
    // another process: the first read waits until this process hears what is published, or the claim's
    // event could be lost between the two. A failed subscription leaves the read to tell the state.
    await this.backend.events.ready().catch(() => {});
    await this.refresh(stream);
  }

  /** Reads the hand-off from the store: for the first message, and after a slow client caught up. */
  private async refresh(stream: OpenHandoffStream): Promise<void> {
    const seen = stream.eventsSeen;
    const handoff = await this.backend.handoffs.get(stream.handoffId).catch(() => undefined);
    if (!this.streams.has(stream) || stream.eventsSeen !== seen) return;
    // Swept, or unreadable (the database away): the client polls, which tells it which.
    if (!handoff) {
      stream.out.raw.end();
      return;
    }
    this.send(stream, handoffEvent(handoff));
  }

  private send(stream: OpenHandoffStream, event: HandoffEvent): void {
    if (!this.streams.has(stream) || !this.eventStreams.writable(stream.out)) return;
    const status = handoffStatus(event, this.now());
    this.eventStreams.write(stream.out, JSON.stringify(status));
    clearTimeout(stream.expiry);
    if (isFinalHandoffState(status.state)) {
      stream.out.raw.end();
      return;
    }
    // Nobody publishes a window running out: the stream tells its desktop when it does, from a fresh read,
    // so a claim that made it just in time (its event still on the way) is not reported as expired.
    stream.expiry = setTimeout(() => void this.refresh(stream), Math.max(0, event.expiresAt - this.now()) + 1);
  }
}
