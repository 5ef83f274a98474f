import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The checkout this bench runs in. */
export const root = resolve(import.meta.dirname, '../..');

export interface Tree {
  dir: string;
  /** V8 flags its engine bench ran with (its `packages/mosaic` bench script): as its render process ran. */
  engineFlags: string[];
  /** Node flags `npm start` gave its server process (its `scripts/start.sh`). */
  serverFlags: string[];
  remove(): void;
}

const V8_HEAP_FLAG = /--(initial-old-space-size|heap-growing-percent|max-semi-space-size)=\d+/g;

const heapFlags = (text: string): string[] => text.match(V8_HEAP_FLAG) ?? [];

/** The flags a tree's engine bench and server start were given. */
export function flagsOf(dir: string): Pick<Tree, 'engineFlags' | 'serverFlags'> {
  const scripts = JSON.parse(readFileSync(join(dir, 'packages/mosaic/package.json'), 'utf8')).scripts ?? {};
  const start = join(dir, 'scripts/start.sh');
  return {
    engineFlags: heapFlags(String(scripts.bench ?? '')),
    serverFlags: existsSync(start) ? heapFlags(readFileSync(start, 'utf8')) : [],
  };
}

/** The workspaces of a tree, by package name. */
function workspaces(dir: string): Map<string, string> {
  const patterns: string[] = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).workspaces ?? [];
  const found = new Map<string, string>();
  for (const pattern of patterns) {
    const path = join(dir, pattern);
    if (!existsSync(join(path, 'package.json'))) continue;
    found.set(JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')).name, pattern);
  }
  return found;
}

/**
 * `commit` checked out beside this checkout (a git worktree in the temp dir), using this checkout's installed
 * packages except its own workspaces, which resolve to the worktree's; then built (`tsc -b`), so its server
 * and engine run exactly as they were. The dependencies are today's: the comparison is of our code.
 */
export function checkOut(commit: string): Tree {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: root, stdio: 'ignore' });
  } catch {
    throw new Error(`Commit ${commit} is not in this clone (a shallow clone?): fetch its history first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-before-'));
  execFileSync('git', ['worktree', 'add', '--detach', '--force', dir, commit], { cwd: root, stdio: 'ignore' });
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const own = workspaces(dir);
    const modules = join(dir, 'node_modules');
    mkdirSync(modules);
    for (const entry of readdirSync(join(root, 'node_modules'))) {
      if (entry === '@selfie-mosaic') continue;
      symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
    }
    mkdirSync(join(modules, '@selfie-mosaic'));
    for (const [name, path] of own) symlinkSync(join(dir, path), join(modules, name));
    // Packages npm installed inside a workspace (versions that differ from the root's).
    for (const path of own.values()) {
      const nested = join(root, path, 'node_modules');
      if (existsSync(nested) && existsSync(join(dir, path)) && !existsSync(join(dir, path, 'node_modules'))) {
        symlinkSync(nested, join(dir, path, 'node_modules'));
      }
    }
    // A tree whose engine has WebAssembly loops compiles them first, as its `npm run build` does.
    const buildWasm = join(dir, 'packages/mosaic/scripts/build-wasm.mjs');
    if (existsSync(buildWasm)) execFileSync(process.execPath, [buildWasm], { cwd: dir, stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
      cwd: dir,
      stdio: 'inherit',
    });
    return { dir, ...flagsOf(dir), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
