import type { JobEvent, StatusEvents } from '../types.js';

/** In-process fan-out of status changes: one listener set per job, so a publish touches only its streams. */
export class MemoryStatusEvents implements StatusEvents {
  private readonly byJob = new Map<string, Set<(event: JobEvent) => void>>();
  private readonly movedListeners = new Set<() => void>();

  publish(event: JobEvent): void {
    const listeners = this.byJob.get(event.jobId);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(event);
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    let listeners = this.byJob.get(jobId);
    if (!listeners) {
      listeners = new Set();
      this.byJob.set(jobId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.byJob.delete(jobId);
    };
  }

  publishQueueMoved(): void {
    for (const listener of [...this.movedListeners]) listener();
  }

  onQueueMoved(listener: () => void): () => void {
    this.movedListeners.add(listener);
    return () => this.movedListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.byJob.clear();
    this.movedListeners.clear();
  }
}
