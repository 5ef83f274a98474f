import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server as its own process on `dir`, so a test can kill it without a chance to clean up. */
export function spawnServer(dir: string, port: number, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [fileURLToPath(new URL('../../dist/server.js', import.meta.url))], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      WORKERS: '1',
      WARM_UP_RENDERS: '0',
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dir, 'no-web-build'),
      ...env,
    },
    stdio: 'ignore',
  });
}

/** Waits until `/readyz` answers 200; a loaded CI machine may take a while to load the face models. */
export async function waitForReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready within ${timeoutMs / 1000} s`);
}
