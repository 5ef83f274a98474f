import type { HandoffEvent, JobEvent, StatusEvents } from '../types.js';

/** Listeners by key (a job or hand-off id), so a publish touches only the streams that follow it. */
class KeyedListeners<E> {
  private readonly byKey = new Map<string, Set<(event: E) => void>>();

  emit(key: string, event: E): void {
    const listeners = this.byKey.get(key);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(event);
  }

  add(key: string, listener: (event: E) => void): () => void {
    let listeners = this.byKey.get(key);
    if (!listeners) {
      listeners = new Set();
      this.byKey.set(key, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.byKey.delete(key);
    };
  }

  clear(): void {
    this.byKey.clear();
  }
}

/** In-process fan-out of status changes: one listener set per job or hand-off. */
export class MemoryStatusEvents implements StatusEvents {
  private readonly jobs = new KeyedListeners<JobEvent>();
  private readonly handoffs = new KeyedListeners<HandoffEvent>();
  private readonly movedListeners = new Set<() => void>();

  publish(event: JobEvent): void {
    this.jobs.emit(event.jobId, event);
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    return this.jobs.add(jobId, listener);
  }

  publishQueueMoved(): void {
    for (const listener of [...this.movedListeners]) listener();
  }

  onQueueMoved(listener: () => void): () => void {
    this.movedListeners.add(listener);
    return () => this.movedListeners.delete(listener);
  }

  publishHandoff(event: HandoffEvent): void {
    this.handoffs.emit(event.handoffId, event);
  }

  subscribeHandoff(handoffId: string, listener: (event: HandoffEvent) => void): () => void {
    return this.handoffs.add(handoffId, listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.jobs.clear();
    this.handoffs.clear();
    this.movedListeners.clear();
  }
}
