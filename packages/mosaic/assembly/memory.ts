/**
 * The engine's WebAssembly loops work on typed arrays the JavaScript side places in this module's
 * memory (`src/wasm.ts`), above the module's own data and stack. The loops never allocate, so
 * nothing else ever claims that space.
 */
export function heapBase(): usize {
  return __heap_base;
}
