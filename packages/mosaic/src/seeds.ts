import { type SizeMap, TILE_SIZES } from './detail.js';
import { type Point, type Window, wholeImage } from './geometry.js';
import type { Guides } from './guides.js';
import { forEachRingPlace } from './pattern.js';
import { addressOf, scratch } from './scratch.js';
import { settleStones } from './settle.js';
import { wasmConstant, wasmFunction } from './wasm.js';

/**
 * Where tesserae start: x, y in artwork pixels, the intended tile size, role and the direction
 * of the row the tessera lies in.
 */
export interface Seeds {
  count: number;
  x: Float32Array;
  y: Float32Array;
  size: Float32Array;
  /** 1 for the visitor, 0 for the background pattern. */
  person: Uint8Array;
  /** 1 for the background row that outlines the silhouette. */
  outline: Uint8Array;
  /**
   * 1 for the rows laid first, along the guide lines themselves: the outline of the figure, the face
   * and its features. The laying plan shows them first.
   */
  line: Uint8Array;
  /** Direction of the tessera's row (unit vector). */
  cos: Float32Array;
  sin: Float32Array;
}

/** Size of the background row that outlines the figure (artwork pixels). */
export const OUTLINE_SIZE = wasmConstant('seedOutlineSize');
/** Two tesserae keep their centres at least this share of their mean size apart (see the index's loops). */
export const SPACING = wasmConstant('seedSpacing');
/** The share along a ring stone's row (see the index's loops). */
export const ALONG = wasmConstant('seedAlong');
/** Bins of the row places' order (1 px of distance from the guide line each), and one more. */
const BINS = wasmConstant('seedBins');
/** Numbers per row place: priority, x, y, size, row direction. */
const CANDIDATE = wasmConstant('seedCandidate');

/**
 * The laying runs in the engine's WebAssembly (`assembly/seeds.ts`), on an index of the stones
 * laid so far that lives there between the calls of one `placeSeeds`.
 */
const layerBytes = wasmFunction<(width: number, height: number) => number>('seedLayerBytes');
const layerBegin = wasmFunction<(work: number, width: number, height: number) => void>('seedLayerBegin');
const layerCount = wasmFunction<() => number>('seedLayerCount');
const setWindow = wasmFunction<(left: number, top: number, right: number, bottom: number) => void>('seedWindow');
type GuideGrids = [
  nearX: number,
  nearY: number,
  distance: number,
  tangentX: number,
  tangentY: number,
  personShare: number,
  sizes: number,
  gridWidth: number,
  gridHeight: number,
];
const rowPlaces =
  wasmFunction<(...args: [...GuideGrids, cell: number, width: number, height: number, candidates: number]) => number>(
    'seedRowPlaces',
  );
const layRows = wasmFunction<(candidates: number, count: number, order: number, starts: number) => void>('seedLayRows');
const tryAdd =
  wasmFunction<
    (
      x: number,
      y: number,
      size: number,
      person: number,
      outline: number,
      cos: number,
      sin: number,
      spacing: number,
      along: number,
      line: number,
    ) => number
  >('seedTryAdd');
const holes =
  wasmFunction<(...args: [...GuideGrids, ring: number, centreX: number, centreY: number]) => void>('seedHoles');
const layerFinish =
  wasmFunction<
    (
      x: number,
      y: number,
      size: number,
      person: number,
      outline: number,
      line: number,
      cos: number,
      sin: number,
    ) => void
  >('seedLayerFinish');

/**
 * Lays the tesserae as a mosaicist does: rows along the guide lines first, nearest first, so the
 * silhouette, face oval, eyes, brows and lips are each outlined and the figure filled by rows
 * following them (opus vermiculatum); one row outlining the figure on the background side; then
 * the background on concentric rings around the face (opus tessellatum); then a tessera in every
 * hole large enough for one. A place is taken only if it keeps clear of every tessera laid
 * before it. The visitor's stones are then settled against their neighbours (`settle.ts`).
 *
 * Only the part of the artwork `within` shows (default: all of it): a stone is laid only where it
 * reaches into that part. The seeds' arrays are the thread's scratch (`scratch.ts`): they live
 * until the next laying.
 */
export function placeSeeds(
  map: SizeMap,
  guides: Guides,
  personShare: Float32Array,
  width: number,
  height: number,
  centre: Point,
  random: () => number,
  within: Window = wholeImage(width, height),
): Seeds {
  const { width: gw, height: gh } = guides;
  const nearX = addressOf(guides.nearX, 'seed-near-x');
  const nearY = addressOf(guides.nearY, 'seed-near-y');
  const distance = addressOf(guides.distance, 'seed-distance');
  const tangentX = addressOf(guides.tangentX, 'seed-tangent-x');
  const tangentY = addressOf(guides.tangentY, 'seed-tangent-y');
  const share = addressOf(personShare, 'seed-person-share');
  const sizes = addressOf(map.sizes, 'seed-sizes');
  layerBegin(scratch('seed-layer', Uint8Array, layerBytes(width, height)).byteOffset, width, height);
  setWindow(within.left, within.top, within.right, within.bottom);

  // Places on the rows, at most one per cell, laid nearest the guide line first.
  const candidates = scratch('seed-candidates', Float32Array, gw * gh * CANDIDATE);
  const count = rowPlaces(
    nearX,
    nearY,
    distance,
    tangentX,
    tangentY,
    share,
    sizes,
    gw,
    gh,
    map.cell,
    width,
    height,
    candidates.byteOffset,
  );
  const order = scratch('seed-order', Int32Array, count);
  layRows(candidates.byteOffset, count, order.byteOffset, scratch('seed-bins', Int32Array, BINS + 1).byteOffset);

  // The background's rings around the face.
  const ring = TILE_SIZES.background;
  forEachRingPlace(centre, ring, wholeImage(width, height), random, (x, y, cos, sin) => {
    const cx = Math.min(width - 1, Math.max(0, x));
    const cy = Math.min(height - 1, Math.max(0, y));
    const reaches =
      cx > within.left - ring && cx < within.right + ring && cy > within.top - ring && cy < within.bottom + ring;
    if (!reaches) return;
    const gx = Math.min(gw - 1, Math.max(0, Math.floor(cx / map.cell)));
    const gy = Math.min(gh - 1, Math.max(0, Math.floor(cy / map.cell)));
    if ((personShare[gy * gw + gx] as number) >= 0.5) return;
    tryAdd(cx, cy, ring, 0, 0, cos, sin, SPACING, ALONG, 0);
  });

  // Holes where rows met at an angle or ran out.
  holes(nearX, nearY, distance, tangentX, tangentY, share, sizes, gw, gh, ring, centre.x, centre.y);

  const laid = layerCount();
  const seeds: Seeds = {
    count: laid,
    x: scratch('seeds-x', Float32Array, laid),
    y: scratch('seeds-y', Float32Array, laid),
    size: scratch('seeds-size', Float32Array, laid),
    person: scratch('seeds-person', Uint8Array, laid),
    outline: scratch('seeds-outline', Uint8Array, laid),
    line: scratch('seeds-line', Uint8Array, laid),
    cos: scratch('seeds-cos', Float32Array, laid),
    sin: scratch('seeds-sin', Float32Array, laid),
  };
  layerFinish(
    seeds.x.byteOffset,
    seeds.y.byteOffset,
    seeds.size.byteOffset,
    seeds.person.byteOffset,
    seeds.outline.byteOffset,
    seeds.line.byteOffset,
    seeds.cos.byteOffset,
    seeds.sin.byteOffset,
  );
  settleStones(seeds, width, height);
  return seeds;
}
