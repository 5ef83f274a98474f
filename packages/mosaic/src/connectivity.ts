import { type Window, wholeImage } from './geometry.js';
import { addressOf, scratch, updateThrough } from './scratch.js';
import type { Seeds } from './seeds.js';
import { wasmFunction } from './wasm.js';

const connectLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      left: number,
      top: number,
      right: number,
      bottom: number,
      seedSize: number,
      runStart: number,
      runEnd: number,
      parent: number,
      size: number,
      tileOf: number,
      origin: number,
    ) => number
  >('connectPieces');

/**
 * Gives every connected piece its own tile id and folds specks (pieces much smaller than their
 * tile should be) into the neighbour they touch, so no tile is scattered or a crumb.
 *
 * Works on runs (a row's stretch of one label) joined with the runs they touch in the row above
 * by union–find, so it costs one pass over the pixels. Pieces are numbered in the order of their
 * first pixel; a speck joins the piece left of its first pixel (above it, at the left edge).
 * The tile ids replace the labels in place, inside `region` (default: the whole image) only:
 * pixels outside it are neither read nor written.
 */
export function enforceConnectivity(
  labels: Int32Array,
  width: number,
  height: number,
  seeds: Seeds,
  region: Window = wholeImage(width, height),
): { labels: Int32Array; origin: Int32Array; count: number } {
  const { left, top, right, bottom } = region;
  // A region of n pixels has at most n runs: room for that many never needs growing, and the
  // pages the runs never reach are never touched.
  const n = (right - left) * (bottom - top);
  const origin = scratch('tile-origin', Int32Array, n);
  let count = 0;
  updateThrough(labels, 'connectivity-labels', (address) => {
    count = connectLoop(
      address,
      width,
      left,
      top,
      right,
      bottom,
      addressOf(seeds.size, 'seed-size'),
      scratch('run-start', Int32Array, n).byteOffset,
      scratch('run-end', Int32Array, n).byteOffset,
      scratch('run-parent', Int32Array, n).byteOffset,
      scratch('run-size', Int32Array, n).byteOffset,
      scratch('run-tile', Int32Array, n).byteOffset,
      origin.byteOffset,
    );
  });
  // The tiles keep their seeds beyond the scratch arrays' next use.
  return { labels, origin: origin.slice(0, count), count };
}
