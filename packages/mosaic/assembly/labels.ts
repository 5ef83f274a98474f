/** The label format's constants, read by the TypeScript (`wasmConstant`) so they are defined once. */
export { NO_TILE as noTile } from './shared/labels';
