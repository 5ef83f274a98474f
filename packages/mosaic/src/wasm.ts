import { readFileSync } from 'node:fs';

/**
 * The engine's hot loops, compiled from `assembly/` to WebAssembly with SIMD (`npm run build`).
 * Each thread instantiates its own copy with its own memory, where the render's working arrays
 * live (`scratch.ts`) and where the loops read and write them by their byte offset.
 */

/**
 * The memory's size in 64 KiB pages, fixed: a memory that grew would detach every view the render
 * holds on it. Pages the render never touches cost address space, not memory.
 */
const PAGES = 4096;

const path = new URL('../dist/engine.wasm', import.meta.url);

function load(): WebAssembly.Instance {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(
      `The art engine's WebAssembly (${path.pathname}) is missing: run \`npm run build\` at the repository root.`,
      { cause: error },
    );
  }
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    env: {
      memory,
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`the engine's WebAssembly stopped at line ${line}:${column}`);
      },
    },
  });
}

export const memory = new WebAssembly.Memory({ initial: PAGES, maximum: PAGES });
const instance = load();

/** Where the working arrays may begin: past the module's own data and stack. */
export const heapBase = (instance.exports.heapBase as () => number)();

/**
 * One of the module's exported constants: a value both the loops and the TypeScript around them
 * depend on is defined once, beside the loop that needs it at compile time, and read here.
 */
export function wasmConstant(name: string): number {
  const exported = instance.exports[name];
  if (!(exported instanceof WebAssembly.Global)) throw new Error(`the engine's WebAssembly has no constant ${name}`);
  return exported.value as number;
}

/** One of the module's exported loops, typed by its caller. */
export function wasmFunction<F extends (...args: never[]) => unknown>(name: string): F {
  const exported = instance.exports[name];
  if (typeof exported !== 'function') throw new Error(`the engine's WebAssembly has no function ${name}`);
  return exported as F;
}
