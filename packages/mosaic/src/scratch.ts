import { heapBase, memory } from './wasm.js';

/**
 * Per-thread scratch memory. A render works on tens of megabytes of typed arrays (the engine
 * README, "Where the time goes"); allocating them afresh each time costs more in page faults and
 * garbage collection than several whole stages, so they are reused across renders. They live in the engine's WebAssembly memory (`wasm.ts`), where its
 * loops read and write them in place: an array's `byteOffset` is its address there. Renders in one
 * thread are serialised (see `render.ts`), so no two ever hold the same array, and a reused array
 * is never assumed to be zeroed.
 */
type TypedArrayKind<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** Every array starts on a cache line, and SIMD loads of 16 bytes are aligned. */
const ALIGN = 64;
/**
 * An array that must grow takes this much more than asked, so that arrays sized by the number of
 * tiles settle after a render or two; the space they leave is not reused.
 */
const GROWTH = 1.25;

const regions = new Map<string, { offset: number; bytes: number }>();
let end = align(heapBase);

function align(offset: number): number {
  return Math.ceil(offset / ALIGN) * ALIGN;
}

export function scratch<T>(key: string, Kind: TypedArrayKind<T>, length: number): T {
  const bytes = length * Kind.BYTES_PER_ELEMENT;
  let region = regions.get(key);
  if (!region || region.bytes < bytes) {
    const size = align(region ? Math.max(bytes, region.bytes * GROWTH) : bytes);
    if (end + size > memory.buffer.byteLength) {
      throw new Error(`the engine's working memory is full (asked for ${size} bytes for ${key})`);
    }
    region = { offset: end, bytes: size };
    end += size;
    regions.set(key, region);
  }
  return new Kind(memory.buffer as ArrayBuffer, region.offset, length);
}

type TypedArray = Exclude<ArrayBufferView, DataView>;

/**
 * `array`'s address in the engine's memory, for its WebAssembly loops: where it lies when it is a
 * scratch array already, else of its copy in the scratch array `key` (an input made elsewhere).
 */
export function addressOf(array: TypedArray, key: string): number {
  if (array.buffer === memory.buffer) return array.byteOffset;
  const copy = scratch(key, Uint8Array, array.byteLength);
  copy.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return copy.byteOffset;
}

/**
 * A table of constants the engine's loops read, `length` values of `value`, made once per thread
 * in the scratch array `key` (no other array may use that key).
 */
export function engineTable(key: string, length: number, value: (index: number) => number): Float32Array {
  const table = scratch(key, Float32Array, length);
  for (let i = 0; i < length; i++) table[i] = value(i);
  return table;
}

/**
 * Copies what a loop wrote at `address` back into `array` when `array` lies outside the engine's
 * memory (`address` is then its copy's, from `addressOf`); a scratch array was written in place.
 */
export function copyBack(array: TypedArray, address: number): void {
  if (array.buffer === memory.buffer) return;
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(
    new Uint8Array(memory.buffer, address, array.byteLength),
  );
}

/**
 * Runs `loop` on the address of `out`, an array it only writes, and returns `out`: in place when
 * `out` is a scratch array, else through the scratch array `key`, copied into `out` after (an
 * output a caller or a test made itself).
 */
export function writeThrough<T extends TypedArray>(out: T, key: string, loop: (address: number) => void): T {
  const address = out.buffer === memory.buffer ? out.byteOffset : scratch(key, Uint8Array, out.byteLength).byteOffset;
  loop(address);
  copyBack(out, address);
  return out;
}

/** `writeThrough` for an array the loop reads as well as writes: its copy is filled from it first. */
export function updateThrough<T extends TypedArray>(array: T, key: string, loop: (address: number) => void): T {
  const address = addressOf(array, key);
  loop(address);
  copyBack(array, address);
  return array;
}

/** Bytes of the engine's memory the working arrays have claimed so far. */
export function scratchBytes(): number {
  return end - heapBase;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it in this thread has settled. */
export function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}
