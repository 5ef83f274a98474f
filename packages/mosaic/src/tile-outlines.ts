import type { Window } from './geometry.js';
import { addressOf, scratch } from './scratch.js';
import { wasmConstant, wasmFunction } from './wasm.js';

/**
 * Each tile's outline as a small convex polygon that covers it: its extent along its row, across
 * it and along both diagonals between them (a bounding octagon in the tile's own frame). The
 * laying plan fills it to show a tessera arriving, then lands the tessera by showing the
 * artwork's own pixels inside it, so a polygon a little larger than its tile shows no more than
 * the joint around it, which its neighbour shows again alike. Measured from the runs of tile
 * pixels on every other row, with no per-tile pixel lists: the plan must cost the render little.
 */

/** Rows measured: one in this many; each run stands for the rows around it. */
export const STEP = 2;
/** Projections kept per tile: the low and high extent along each of the four directions. */
export const EXTENTS = 8;

export interface Outlines {
  /** Whether tile t has pixels in the window. */
  present: Uint8Array;
  /** Centre of each measured tile (integer pixels), its corners as offsets from it. */
  cx: Int16Array;
  cy: Int16Array;
  cornerStart: Uint32Array;
  /** (dx, dy) pairs. */
  corners: Int8Array;
}

/** Each tile's row direction (unit vector). */
export interface Directions {
  cos: Float32Array;
  sin: Float32Array;
}

/**
 * Doubles per tile of the WebAssembly's frame: its four directions' x and y and the magnitudes of
 * their y (defined in `assembly/tile-outlines.ts`).
 */
const FRAME_STRIDE = wasmConstant('outlineFrameStride');
/** Doubles of one octagon's corners. */
const POLYGON = 16;
/** Bytes of corners a tile may take: eight (dx, dy) pairs. */
const CORNER_BYTES = 16;

const outlineTiles =
  wasmFunction<
    (
      labels: number,
      width: number,
      left: number,
      top: number,
      right: number,
      bottom: number,
      step: number,
      count: number,
      cos: number,
      sin: number,
      wanted: number,
      present: number,
      frame: number,
      extents: number,
      polygon: number,
      cx: number,
      cy: number,
      cornerStart: number,
      corners: number,
    ) => number
  >('outlineTiles');

/**
 * The outlines of the tiles of `labels` (`width` wide) inside `window`. Only the tiles `measured`
 * accepts get a polygon; every tile seen is marked present. The run scan and the octagons run in
 * the engine's WebAssembly; the laying plan keeps the outlines of the 4:5 while it measures the
 * story's, so they are returned as copies of the working arrays.
 */
export function tileOutlines(
  labels: Uint16Array,
  width: number,
  window: Window,
  count: number,
  { cos, sin }: Directions,
  measured: (tile: number) => boolean,
): Outlines {
  const wanted = scratch('outline-wanted', Uint8Array, count);
  for (let t = 0; t < count; t++) wanted[t] = measured(t) ? 1 : 0;
  const present = scratch('outline-present', Uint8Array, count);
  const cx = scratch('outline-cx', Int16Array, count);
  const cy = scratch('outline-cy', Int16Array, count);
  const cornerStart = scratch('outline-corner-start', Uint32Array, count + 1);
  const corners = scratch('outline-corners', Int8Array, count * CORNER_BYTES);
  const used = outlineTiles(
    addressOf(labels, 'outline-labels'),
    width,
    window.left,
    window.top,
    window.right,
    window.bottom,
    STEP,
    count,
    addressOf(cos, 'outline-cos'),
    addressOf(sin, 'outline-sin'),
    wanted.byteOffset,
    present.byteOffset,
    scratch('outline-frame', Float64Array, count * FRAME_STRIDE).byteOffset,
    scratch('outline-extents', Float64Array, count * EXTENTS).byteOffset,
    scratch('outline-polygon', Float64Array, POLYGON).byteOffset,
    cx.byteOffset,
    cy.byteOffset,
    cornerStart.byteOffset,
    corners.byteOffset,
  );
  return {
    present: present.slice(),
    cx: cx.slice(),
    cy: cy.slice(),
    cornerStart: cornerStart.slice(),
    corners: corners.slice(0, used * 2),
  };
}
