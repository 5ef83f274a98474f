import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../apps/server/src/test/services.js';
import { flagsOf, root } from './worktree.js';

/**
 * Scale-mode processes of the built server for the benchmarks (`ROLE=api` or `worker`), sharing the env
 * given to the cluster, each on a port of its own, started with the Node flags `npm start` gives the
 * server. apps/server/src/test/cluster.ts does the same for the tests but imports the test harness
 * (vitest), which a benchmark cannot load.
 */

const SERVER = join(root, 'apps/server/dist/server.js');
/** Engine models load and warm-up renders run before a process is ready; a busy machine slows both. */
const READY_TIMEOUT_MS = 180_000;
/** A process still running this long after SIGTERM is killed. */
const STOP_TIMEOUT_MS = 90_000;
/** Error lines kept as evidence; past this many only the count grows. */
const KEPT_ERRORS = 50;

/** Warning lines kept, for the story of a job that went wrong. */
const KEPT_WARNINGS = 2000;

/** pino's numeric levels: 40 is warn, 50 error, 60 fatal. */
const WARN_LEVEL = 40;
const ERROR_LEVEL = 50;

export interface ServerProcess {
  name: string;
  role: 'api' | 'worker';
  url: string;
  pid: number;
  child: ChildProcess;
  /** Answered /readyz 200 once: a load balancer sends it visitors from then on. */
  ready: boolean;
  /** Killed or stopped by the benchmark: its exit is no failure. */
  gone: boolean;
  exited: Promise<void>;
}

export interface LoggedJob {
  jobId: string;
  attempt: number;
  /** Epoch ms of the log line. */
  at: number;
  process: string;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, asking again after a short pause; returns how long that took. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
  return performance.now() - started;
}

export async function readyz(proc: ServerProcess): Promise<number> {
  return fetch(`${proc.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
    (response) => response.status,
    () => 0,
  );
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export class ScaleCluster {
  readonly processes: ServerProcess[] = [];
  /** Every `job completed` line: a job rendered to completion twice has two. */
  readonly completions: LoggedJob[] = [];
  /** Every render stopped at its deadline (`RENDER_TIMEOUT`). */
  readonly deadlines: LoggedJob[] = [];
  /** Error and fatal log lines, the first few kept whole. */
  readonly errors: { process: string; line: string }[] = [];
  errorCount = 0;
  /** Warning lines (and worse), the first KEPT_WARNINGS. */
  readonly warnings: { process: string; line: string }[] = [];
  /** What the processes wrote to stderr (a process that logs only JSON writes nothing there). */
  stderr = '';
  private readonly nodeFlags = flagsOf(root).serverFlags;

  constructor(private readonly env: Record<string, string>) {}

  /** Starts a process and resolves once its /readyz answers 200. */
  async spawn(name: string, role: ServerProcess['role'], env: Record<string, string> = {}): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [...this.nodeFlags, SERVER], {
      cwd: root,
      env: {
        ...process.env,
        ...this.env,
        ...env,
        ROLE: role,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const proc: ServerProcess = {
      name,
      role,
      url: `http://127.0.0.1:${port}`,
      pid: child.pid ?? 0,
      child,
      ready: false,
      gone: false,
      exited,
    };
    this.processes.push(proc);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => this.read(name, text));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = `${this.stderr}${name}: ${chunk.toString()}`.slice(-20_000);
    });
    await until(
      `${name} ready`,
      async () => {
        if (!isRunning(child))
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}): ${this.stderr}`);
        return (await readyz(proc)) === 200;
      },
      READY_TIMEOUT_MS,
    );
    proc.ready = true;
    return proc;
  }

  private read(name: string, text: string): void {
    // Only a few kinds of line matter here; the rest are not parsed.
    const completed = text.includes('"job completed"');
    const deadline = text.includes('render passed its deadline');
    const warning = /"level":[4-6]\d/.test(text);
    if (!completed && !deadline && !warning) return;
    let line: { level: number; time: number; msg: string; jobId?: string; attempt?: number };
    try {
      line = JSON.parse(text);
    } catch {
      return;
    }
    const logged = { jobId: line.jobId ?? '', attempt: line.attempt ?? 0, at: line.time, process: name };
    if (line.msg === 'job completed') this.completions.push(logged);
    if (deadline) this.deadlines.push(logged);
    if (line.level >= WARN_LEVEL && this.warnings.length < KEPT_WARNINGS)
      this.warnings.push({ process: name, line: text });
    if (line.level >= ERROR_LEVEL) {
      this.errorCount++;
      if (this.errors.length < KEPT_ERRORS) this.errors.push({ process: name, line: text });
    }
  }

  /** Processes started, not yet ended by the benchmark. */
  live(role?: ServerProcess['role']): ServerProcess[] {
    return this.processes.filter((p) => p.ready && !p.gone && (role === undefined || p.role === role));
  }

  /** SIGKILL: the process dies mid-whatever, as on a lost machine. */
  async kill(proc: ServerProcess): Promise<void> {
    proc.gone = true;
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  /** SIGTERM: the graceful stop an orchestrator asks for; killed if it does not end in time. */
  async stop(proc: ServerProcess): Promise<void> {
    proc.gone = true;
    if (!isRunning(proc.child)) return;
    proc.child.kill('SIGTERM');
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await proc.exited;
    clearTimeout(timer);
  }

  /** Processes that ended without the benchmark ending them. */
  exitedByThemselves(): ServerProcess[] {
    return this.processes.filter((p) => !p.gone && !isRunning(p.child));
  }

  /** Jobs whose completion was logged more than once. */
  completedTwice(): string[] {
    const counts = new Map<string, number>();
    for (const { jobId } of this.completions) counts.set(jobId, (counts.get(jobId) ?? 0) + 1);
    return [...counts].filter(([, n]) => n > 1).map(([jobId]) => jobId);
  }

  async stopAll(): Promise<void> {
    const running = this.processes.filter((p) => isRunning(p.child));
    await Promise.all(running.map((p) => this.stop(p)));
  }

  /** For an emergency exit: no waiting. */
  killAll(): void {
    for (const p of this.processes) if (isRunning(p.child)) p.child.kill('SIGKILL');
  }
}

/**
 * Readiness of every live process, asked every `everyMs` while a scenario runs: which processes were not
 * ready when. `stop` ends the watch.
 */
export function watchReadiness(cluster: ScaleCluster, everyMs: number) {
  const notReady: { at: number; process: string; status: number }[] = [];
  let watching = true;
  const done = (async () => {
    while (watching) {
      const procs = cluster.live();
      const statuses = await Promise.all(procs.map(readyz));
      const at = Date.now();
      procs.forEach((p, i) => {
        // One killed while it was asked has no answer on purpose.
        if (statuses[i] !== 200 && !p.gone) notReady.push({ at, process: p.name, status: statuses[i] as number });
      });
      await sleep(everyMs);
    }
  })();
  return {
    notReady,
    async stop() {
      watching = false;
      await done;
    },
  };
}

/** Waits until every live process answers /readyz with `status`; returns how long that took. */
export function allReadyz(cluster: ScaleCluster, status: number, what: string, timeoutMs: number) {
  return until(
    what,
    async () => {
      const procs = cluster.live();
      return (await Promise.all(procs.map(readyz))).every((s) => s === status);
    },
    timeoutMs,
  );
}
