import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of processes sampled every second from /proc: each named process and, separately, its
 * child processes (a worker's render process). VmHWM is the kernel's own high-water mark, so a peak
 * between two samples is not missed.
 */

export interface MemoryPeak {
  process: string;
  /** RSS at the first sample, MB. */
  firstMb: number;
  /** Highest RSS sampled, MB. */
  peakMb: number;
  /** Highest VmHWM read (the peak since the process started), MB. */
  hwmMb: number;
}

export interface Target {
  name: string;
  pid: number;
  /** Sample its child processes too (default); not for a process whose children are sampled on their own. */
  children?: boolean;
}

function memoryOf(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    // Gone between the listing and the read.
    return undefined;
  }
}

/** Child processes started by any thread of `pid`. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** This process's child of the given program name (`redis-server`), if one runs. */
export function ownChild(command: string): number | undefined {
  return childPids(process.pid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command;
    } catch {
      return false;
    }
  });
}

export class MemorySampler {
  private readonly peaks = new Map<string, MemoryPeak>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly targets: () => Target[],
    private readonly childName = 'render process',
  ) {}

  start(everyMs = 1000): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  stop(): MemoryPeak[] {
    clearInterval(this.timer);
    this.sample();
    return [...this.peaks.values()];
  }

  private sample(): void {
    for (const { name, pid, children = true } of this.targets()) {
      this.note(name, pid);
      if (!children) continue;
      childPids(pid).forEach((child, i) => {
        this.note(`${name}: ${this.childName}${i > 0 ? ` ${i + 1}` : ''}`, child);
      });
    }
  }

  private note(process: string, pid: number): void {
    const memory = memoryOf(pid);
    if (!memory) return;
    const seen = this.peaks.get(process);
    this.peaks.set(process, {
      process,
      firstMb: seen?.firstMb ?? memory.rssMb,
      peakMb: Math.max(seen?.peakMb ?? 0, memory.rssMb),
      hwmMb: Math.max(seen?.hwmMb ?? 0, memory.hwmMb),
    });
  }
}
