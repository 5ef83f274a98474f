import { isActiveStatus, type QueueStatus, type ResultResponse } from '@selfie-mosaic/contract';
import { JobMonitor, type MonitorDeps, statusOf } from './job-monitor';
import type { SessionStore } from './session-store';

export interface JobSessionDeps extends MonitorDeps {
  artworkUrl(filePath: string): string;
}

/**
 * Ties the session store to the job monitor: starting and resuming monitoring, validating a stored job on return
 * (docs/product.md#returning-to-a-saved-job), and the reset/clear semantics that also stop any monitoring.
 */
export class JobSession {
  private monitor: JobMonitor | null = null;

  constructor(
    readonly store: SessionStore,
    private readonly deps: JobSessionDeps,
  ) {}

  get monitoring(): boolean {
    return this.monitor?.active ?? false;
  }

  /** After an upload: remember the job and follow it. */
  startJob(jobId: string, initial: QueueStatus | null): void {
    this.store.update({
      currentJobId: jobId,
      queueStatus: initial,
      processedImage: null,
      storyImage: null,
      layingPlan: null,
      artworkRevealed: false,
      isUploading: false,
      isProcessing: true,
      error: null,
      serverLoadDetected: false,
    });
    this.monitorJob(jobId);
  }

  monitorJob(jobId: string): void {
    this.monitor?.stop();
    const monitor = new JobMonitor(jobId, this.deps, {
      onStatus: (queueStatus) => this.ifCurrent(monitor, () => this.store.update({ queueStatus })),
      onServerLoad: (serverLoadDetected) => this.ifCurrent(monitor, () => this.store.update({ serverLoadDetected })),
      onCompleted: (result) => this.ifCurrent(monitor, () => this.complete(result)),
      onFailed: (code) => this.ifCurrent(monitor, () => this.store.update({ isProcessing: false, error: code })),
    });
    this.monitor = monitor;
    monitor.start();
  }

  /**
   * Checks a job saved by an earlier visit (docs/product.md#returning-to-a-saved-job). True when the session still
   * holds a usable job (completed, or resumed monitoring); false when it was reset.
   */
  async validateStoredJob(): Promise<boolean> {
    const jobId = this.store.getState().currentJobId;
    if (!jobId) return false;
    try {
      if (await this.resumeStoredJob(jobId)) return true;
    } catch (error) {
      // The job may well exist: a network blip or overload must not throw away the visitor's work.
      if (statusOf(error) !== 404) return true;
    }
    // Gone (404), failed, or in a state there is nothing to follow in: the visitor starts afresh.
    this.reset();
    return false;
  }

  /** Shows a stored job's artwork or follows it again; false when it has neither. */
  private async resumeStoredJob(jobId: string): Promise<boolean> {
    const status = await this.deps.fetchStatus(jobId);
    if (status.status === 'completed') {
      this.complete(await this.deps.fetchResult(jobId));
      return true;
    }
    if (isActiveStatus(status.status)) {
      this.store.update({ queueStatus: status, isProcessing: true });
      this.monitorJob(jobId);
      return true;
    }
    return false;
  }

  /** Clears everything, stops polling and clears storage. */
  reset(): void {
    this.stopMonitoring();
    this.store.reset();
  }

  /** Drops the photo and its job, keeping the session, consent and answer (for a new photo). */
  clearPhotoData(): void {
    this.stopMonitoring();
    this.store.clearPhotoData();
  }

  stopMonitoring(): void {
    this.monitor?.stop();
    this.monitor = null;
  }

  private complete(result: ResultResponse): void {
    this.store.update({
      processedImage: this.deps.artworkUrl(result.file_path),
      storyImage: this.deps.artworkUrl(result.story_path),
      // A server that keeps no laying plans sends none: the artwork is then shown at once.
      layingPlan: result.plan_path ? this.deps.artworkUrl(result.plan_path) : null,
      isProcessing: false,
      error: null,
      serverLoadDetected: false,
    });
  }

  private ifCurrent(monitor: JobMonitor, action: () => void): void {
    if (this.monitor === monitor) action();
  }
}
