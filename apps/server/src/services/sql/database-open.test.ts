import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../../test/harness.js';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-db-open-'));
  dirs.push(dir);
  return dir;
}

/** Starts the built server as an operator would and collects what it says before it stops. */
async function start(dir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../../dist/server.js', import.meta.url))], {
    env: { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dir, WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, stderr, stdout };
}

function expectOneClearLine(result: { code: number | null; stderr: string; stdout: string }, file: string) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(file);
  // No stack trace, no error class dump.
  expect(result.stderr).not.toMatch(/\n\s+at |SqliteError/);
}

it('stops with one line naming the file and what to do when the database is not a database', async () => {
  const dir = dataDir();
  const file = path.join(dir, 'selfie-mosaic.sqlite');
  writeFileSync(file, Buffer.alloc(64 * 1024, 'garbage, not SQLite '));
  const result = await start(dir);
  expectOneClearLine(result, file);
  expect(result.stderr).toContain('file is not a database');
  expect(result.stderr).toContain('Restore it from a backup');
});

it('says the same when the database file is damaged inside', async () => {
  const dir = dataDir();
  const file = path.join(dir, 'selfie-mosaic.sqlite');
  const db = new Database(file);
  db.exec('CREATE TABLE filler (x TEXT)');
  const insert = db.prepare('INSERT INTO filler VALUES (?)');
  for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000));
  db.close();
  // Keep the header page, scribble over the schema and data pages.
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(32 * 1024, 0xa5), 0, 32 * 1024, 100);
  closeSync(fd);
  const result = await start(dir);
  expectOneClearLine(result, file);
  expect(result.stderr).toContain('Restore it from a backup');
});

it('says what to check when the database cannot be opened at all', async () => {
  const dir = dataDir();
  const file = path.join(dir, 'selfie-mosaic.sqlite');
  mkdirSync(file);
  const result = await start(dir);
  expectOneClearLine(result, file);
  expect(result.stderr).toContain('read and write');
});
