/**
 * Compiles the engine's hot loops (`assembly/*.ts`, AssemblyScript) to `dist/engine.wasm` with
 * SIMD, optimised for speed. Runs with `npm install` (the root `prepare` script) and `npm run build`;
 * it needs nothing beyond the npm packages.
 */
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import asc from 'assemblyscript/asc';

const root = join(import.meta.dirname, '..');
// The compiler reads its sources relative to the working directory, wherever the script is started from.
process.chdir(root);
const sources = (await readdir(join(root, 'assembly')))
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => join('assembly', name));
await mkdir(join(root, 'dist'), { recursive: true });
// Written beside its place, then moved there: a render starting meanwhile reads the old or the new.
const building = `dist/engine.${process.pid}`;
const { error, stderr } = await asc.main(
  [
    ...sources,
    '--outFile',
    `${building}.wasm`,
    '--optimizeLevel',
    '3',
    '--shrinkLevel',
    '0',
    '--noAssert',
    '--uncheckedBehavior',
    'always',
    '--enable',
    'simd',
    '--importMemory',
    '--runtime',
    'minimal',
    // AssemblyScript warns of every exported function that takes or returns a v128, the shared lane
    // helpers (`assembly/shared/lanes.ts`) too, which only the engine's own files import; the
    // module's exports, which JavaScript calls, take and return numbers only.
    '--disableWarning',
    '112',
    '--textFile',
    `${building}.wat`,
  ],
  { stdout: process.stdout, stderr: process.stderr, baseDir: root },
);
if (error) {
  console.error(stderr.toString());
  console.error(`The engine's WebAssembly did not compile: ${error.message}`);
  process.exit(1);
}
// The loops' arrays live where the runtime's heap would begin (`src/scratch.ts`): a loop that
// allocated (a class, an array, a string) would write over them.
const text = await readFile(join(root, `${building}.wat`), 'utf8');
await rm(join(root, `${building}.wat`));
if (text.includes('~lib/rt/tlsf')) {
  await rm(join(root, `${building}.wasm`));
  console.error("The engine's WebAssembly allocates memory: its loops must work only on the arrays they are given.");
  process.exit(1);
}
await rename(join(root, `${building}.wasm`), join(root, 'dist/engine.wasm'));
