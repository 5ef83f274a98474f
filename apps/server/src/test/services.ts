import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Redis and PostgreSQL for the scale-mode tests and benchmarks: each run starts its own instances on
 * free ports in temporary folders (installed by scripts/ensure-services.sh when missing), never the
 * machine's own. No vitest import here: the benchmarks use it outside the test runner.
 */

const ENSURE_SCRIPT = fileURLToPath(new URL('../../../../scripts/ensure-services.sh', import.meta.url));

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

/** A service a fault test takes down hard and brings back on the same port and files. */
export interface RestartableService extends RunningService {
  /** Ends it as a crash would: Redis SIGKILLed, PostgreSQL's immediate shutdown (no checkpoint). */
  crash(): Promise<void>;
  /** Starts it again on its files and port; resolves once it answers. */
  restart(): Promise<void>;
}

/** A port nobody listens on right now, for servers started as child processes. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function ensureServicesInstalled(): void {
  execFileSync('bash', [ENSURE_SCRIPT], { stdio: 'inherit' });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * A Redis of the run's own. `appendOnly` keeps its data in an append-only file, as docker-compose.yml
 * runs it, so that a crashed Redis restarts with its queue.
 */
export async function startRedis(options: { appendOnly?: boolean } = {}): Promise<RestartableService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push('--appendonly', options.appendOnly ? 'yes' : 'no', '--maxmemory-policy', 'noeviction');
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import('ioredis');
  let child: ChildProcess;
  const start = async () => {
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    child = started;
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      // Refused until it listens: the connect call's rejection says so; the event would print it again.
      client.on('error', () => {});
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    }, 'redis-server');
  };
  await start();
  return {
    url,
    async crash() {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: start,
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBin(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const file = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(file)) return file;
  }
  throw new Error(`PostgreSQL's ${name} not found under /usr/lib/postgresql: run scripts/ensure-services.sh`);
}

/** PostgreSQL refuses to run as root: as root, run its programs as the `postgres` system user. */
function postgresUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  };
}

/**
 * A PostgreSQL of the run's own. Fast by default: commits return before their log is written, which a
 * crash may lose. `durable` keeps a committed transaction through a crash of the server, as production
 * runs it, for the tests that crash it.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<RestartableService> {
  const root = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-pg-'));
  const data = path.join(root, 'data');
  const port = await freePort();
  const user = postgresUser();
  if (user.uid !== undefined) chownSync(root, user.uid, user.gid);
  chmodSync(root, 0o700);
  const spawnOptions = { ...user, cwd: root, env: { ...process.env, HOME: root } };
  execFileSync(postgresBin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], {
    ...spawnOptions,
    stdio: 'ignore',
  });
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    root,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    `synchronous_commit=${options.durable ? 'on' : 'off'}`,
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ];
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess;
  const start = async () => {
    const started = spawn(postgresBin('postgres'), args, { ...spawnOptions, stdio: 'ignore' });
    child = started;
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`postgres exited with ${started.exitCode}`);
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => {});
      }
    }, 'PostgreSQL');
  };
  await start();
  return {
    url,
    // SIGQUIT: PostgreSQL's immediate shutdown, what `pg_ctl stop -m immediate` sends: its sessions are
    // cut and it recovers from its log at the next start, as after a crash.
    async crash() {
      child.kill('SIGQUIT');
      await exited(child);
    },
    restart: start,
    async stop() {
      // SIGINT: PostgreSQL's fast shutdown (ends its sessions and background processes).
      child.kill('SIGINT');
      await exited(child);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the test server: each test owns its data. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `t_${Math.random().toString(36).slice(2, 12)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
