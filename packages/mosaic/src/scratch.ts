/**
 * Per-thread scratch memory. A render allocates some 30 MB of typed arrays; allocating them afresh
 * each time costs more in page faults and garbage collection than several whole stages, so the
 * big ones are reused across renders. Renders in one thread are serialised (see `render.ts`), so
 * no two ever hold the same buffer, and a reused buffer is never assumed to be zeroed.
 */
type TypedArrayKind<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

const buffers = new Map<string, ArrayBuffer>();

export function scratch<T>(key: string, Kind: TypedArrayKind<T>, length: number): T {
  const bytes = length * Kind.BYTES_PER_ELEMENT;
  let buffer = buffers.get(key);
  if (!buffer || buffer.byteLength < bytes) {
    buffer = new ArrayBuffer(bytes);
    buffers.set(key, buffer);
  }
  return new Kind(buffer, 0, length);
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it in this thread has settled. */
export function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}
