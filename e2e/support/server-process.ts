import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory of the server process, the one answering HTTP, in MB. */
  rssMb(): number;
  /** Resident memory of its child processes (the render process: worker threads and face models), in MB. */
  childRssMb(): number;
  /** CPU time the server's main thread (the one answering HTTP) has used so far, in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

function childPids(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ), 100 on Linux. */
const USER_HZ = 100;

function cpuSecondsOf(pid: number): number {
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
  // The main thread's task id is the process id; render workers are other tasks and are left out.
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

/**
 * Starts the built server (`apps/server/dist/server.js`) as its own process on a free port and a fresh
 * data dir, and resolves once it is ready. Used by the browser tests and the benchmarks. V8's old
 * generation starts at 64 MB, as `npm start` and the Dockerfile start it (see the engine README).
 */
export async function startServer(
  env: Record<string, string> = {},
  {
    logs = false,
    checkout = root,
    nodeFlags = ['--initial-old-space-size=64'],
  }: {
    logs?: boolean;
    /** Another checkout's built server (a benchmark comparing two versions). */
    checkout?: string;
    nodeFlags?: string[];
  } = {},
): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, 'apps/server/dist/server.js'], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', logs ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('The server was not ready within 60 s');
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    rssMb: () => residentMb(pid),
    childRssMb: () => childPids(pid).reduce((sum, child) => sum + residentMb(child), 0),
    cpuSeconds: () => cpuSecondsOf(pid),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
