/**
 * The part of the WebAssembly JavaScript API the engine's loader uses (`wasm.ts`): Node has it, but
 * Node 20's type definitions do not declare it and the engine's build has no DOM library.
 */
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Global {
    readonly value: unknown;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
