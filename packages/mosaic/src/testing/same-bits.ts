type TypedArray = Exclude<ArrayBufferView, DataView>;

/**
 * How many elements of `got` and `want` differ in their bits (NaNs and signed zeros included), or
 * `Infinity` when their lengths or kinds differ: what a test of a WebAssembly loop against the
 * JavaScript it replaced counts, 0 when both wrote the same.
 */
export function differingElements(got: TypedArray, want: TypedArray): number {
  if (got.byteLength !== want.byteLength || got.constructor !== want.constructor) return Number.POSITIVE_INFINITY;
  const size = got.byteLength / (got as Uint8Array).length;
  const a = new Uint8Array(got.buffer, got.byteOffset, got.byteLength);
  const b = new Uint8Array(want.buffer, want.byteOffset, want.byteLength);
  let differing = 0;
  for (let i = 0; i < a.length; i += size) {
    for (let k = 0; k < size; k++) {
      if (a[i + k] !== b[i + k]) {
        differing++;
        break;
      }
    }
  }
  return differing;
}
