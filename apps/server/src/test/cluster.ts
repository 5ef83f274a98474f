import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { QueueStatus } from '@selfie-mosaic/contract';
import { EventSource } from 'eventsource';
import { Client, freePort } from './harness.js';

/**
 * Scale mode on one machine for the multi-process tests: processes of the built server (`ROLE=api` or
 * `worker`) sharing one Redis, PostgreSQL and storage directory, each on a port of its own.
 */

const SERVER = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Killed on purpose: its exit is the test's doing, not a failure. */
  killed: boolean;
}

export class Cluster {
  readonly processes: ServerProcess[] = [];
  /** Finished renders per job, from the one `job completed` line the worker that finished it logs. */
  readonly completions = new Map<string, number>();
  /** Every JSON log line of every process, for assertions about what was logged. */
  readonly logLines: { process: string; line: Record<string, unknown> }[] = [];
  /** What the processes wrote to stderr: a process that logs only JSON writes nothing there. */
  stderr = '';

  constructor(private readonly shared: Record<string, string>) {}

  /** Starts a process and resolves once its /readyz answers 200. */
  async spawn(name: string, env: Record<string, string>): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [SERVER], {
      env: { ...process.env, ...this.shared, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
      const line = JSON.parse(text) as Record<string, unknown>;
      this.logLines.push({ process: name, line });
      if (line.msg !== 'job completed') return;
      const jobId = line.jobId as string;
      this.completions.set(jobId, (this.completions.get(jobId) ?? 0) + 1);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += `${name}: ${chunk.toString()}`;
    });
    const proc: ServerProcess = { name, url: `http://127.0.0.1:${port}`, child, killed: false };
    this.processes.push(proc);
    await waitUntilReady(proc, 90_000);
    return proc;
  }

  /** SIGKILL: the process dies mid-whatever, as on a lost machine. */
  kill(proc: ServerProcess): Promise<unknown> {
    proc.killed = true;
    proc.child.kill('SIGKILL');
    return new Promise((resolve) => proc.child.once('exit', resolve));
  }

  /** Processes that exited without being killed by the test. */
  exitedByThemselves(): ServerProcess[] {
    return this.processes.filter((p) => !p.killed && (p.child.exitCode !== null || p.child.signalCode !== null));
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      this.processes.map(({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        child.kill('SIGTERM');
        return new Promise((resolve) => child.once('exit', resolve));
      }),
    );
  }
}

export async function readyz(proc: ServerProcess): Promise<number> {
  return fetch(`${proc.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.status,
    () => 0,
  );
}

export async function waitUntilReady(proc: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited with ${proc.child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready in ${timeoutMs} ms`);
    if ((await readyz(proc)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return Number(line?.split(' ').at(-1) ?? Number.NaN);
}

/**
 * A visitor's client: follows its job on the event stream of its API; when that stream breaks (the API
 * died) or sends the overload message, it polls the other API, as the web app falls back to polling.
 */
export interface FollowOutcome {
  status: string;
  resumed: boolean;
  /** Distinct statuses the stream delivered, in order. */
  streamed: string[];
}

export function follow(jobId: string, streamUrl: string, fallbackUrl: string): Promise<FollowOutcome> {
  return new Promise((resolve, reject) => {
    const streamed: string[] = [];
    const source = new EventSource(`${streamUrl}/api/queue/stream/${jobId}`);
    const poll = () => {
      source.close();
      new Client(fallbackUrl)
        .waitUntilFinal(jobId, 600_000)
        .then((final) => resolve({ status: final.status, resumed: true, streamed }), reject);
    };
    source.onmessage = (event) => {
      const { status } = JSON.parse(event.data) as QueueStatus;
      if (streamed.at(-1) !== status) streamed.push(status);
      if (status === 'completed' || status === 'failed') {
        source.close();
        resolve({ status, resumed: false, streamed });
      } else if (status === 'error') poll();
    };
    source.onerror = poll;
  });
}
