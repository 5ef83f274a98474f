import { sobel } from './gradient.js';
import type { LandmarkGroup, Landmarks } from './landmarks.js';
import { addressOf, scratch } from './scratch.js';
import { wasmFunction } from './wasm.js';

/**
 * The detail map: how large each tessera should be, everywhere on the artwork. Face features get
 * the smallest tiles (9-px blocks keep a face recognisable, 12-px ones lose it: docs/architecture.md#the-art-engine),
 * then the face, then edges and the silhouette, and the rest of the person the largest.
 */

/** Tile spacing in artwork pixels for each kind of area. */
export const TILE_SIZES = {
  eyes: 7.5,
  brows: 9,
  mouth: 8,
  nose: 10,
  face: 13,
  silhouette: 13,
  edgeFloor: 11,
  person: 22,
  background: 34,
} as const;

/** The features drawn in the smallest tiles, and how far around each landmark group they reach. */
export const FEATURES: { group: LandmarkGroup; size: number; pad: number }[] = [
  { group: 'rightEye', size: TILE_SIZES.eyes, pad: 1.5 },
  { group: 'leftEye', size: TILE_SIZES.eyes, pad: 1.5 },
  { group: 'rightBrow', size: TILE_SIZES.brows, pad: 1.4 },
  { group: 'leftBrow', size: TILE_SIZES.brows, pad: 1.4 },
  { group: 'lips', size: TILE_SIZES.mouth, pad: 1.3 },
  { group: 'nose', size: TILE_SIZES.nose, pad: 1.25 },
];

/** An axis-aligned ellipse around a landmark group, in artwork pixels. */
export interface Region {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  size: number;
}

export function regionOf(points: Float32Array, pad: number, size: number): Region {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i] as number;
    const y = points[i + 1] as number;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const minRadius = 3 * size;
  return {
    cx: (x0 + x1) / 2,
    cy: (y0 + y1) / 2,
    rx: Math.max(minRadius, ((x1 - x0) / 2) * pad),
    ry: Math.max(minRadius, ((y1 - y0) / 2) * pad),
    size,
  };
}

type Pointer = number;

const blurLoop =
  wasmFunction<
    (v: Pointer, width: number, height: number, radius: number, rows: Pointer, sums: Pointer, out: Pointer) => void
  >('detailBlur');
/** Each cell's size; every region's weight is 1 inside its ellipse, fading to 0 at 1.5 radii. */
const sizesLoop =
  wasmFunction<
    (
      mask: Pointer,
      edges: Pointer,
      silhouette: Pointer,
      width: number,
      height: number,
      cell: number,
      cx: number,
      cy: number,
      rx: number,
      ry: number,
      background: number,
      person: number,
      face: number,
      edgeFloor: number,
      silhouetteSize: number,
      sizes: Pointer,
    ) => void
  >('detailSizes');
const featureLoop =
  wasmFunction<
    (
      sizes: Pointer,
      width: number,
      gx0: number,
      gx1: number,
      gy0: number,
      gy1: number,
      cell: number,
      cx: number,
      cy: number,
      rx: number,
      ry: number,
      size: number,
    ) => void
  >('detailFeature');

export interface SizeMap {
  /** Tile spacing (artwork pixels) per cell. */
  sizes: Float32Array;
  width: number;
  height: number;
  /** Artwork pixels per cell. */
  cell: number;
}

/**
 * Builds the size map on a grid of `cell`-pixel cells from the lightness's gradient magnitude and the
 * person mask at that grid's resolution and the face's landmarks in artwork pixels.
 */
export function buildSizeMap(
  lumaGradient: Float32Array,
  mask: Float32Array,
  width: number,
  height: number,
  cell: number,
  landmarks: Landmarks,
): SizeMap {
  const edges = blur(lumaGradient, width, height, 2, 'detail-edges');
  const silhouette = blur(sobel(mask, width, height, 'size-mask').magnitude, width, height, 2, 'detail-silhouette');
  const features = FEATURES.map((f) => regionOf(landmarks[f.group], f.pad, f.size));
  const face = regionOf(landmarks.outline, 1.05, TILE_SIZES.face);
  const sizes = scratch('detail-sizes', Float32Array, width * height);
  sizesLoop(
    addressOf(mask, 'detail-mask'),
    edges.byteOffset,
    silhouette.byteOffset,
    width,
    height,
    cell,
    face.cx,
    face.cy,
    face.rx,
    face.ry,
    TILE_SIZES.background,
    TILE_SIZES.person,
    TILE_SIZES.face,
    TILE_SIZES.edgeFloor,
    TILE_SIZES.silhouette,
    sizes.byteOffset,
  );
  // Each feature reaches 1.5 radii from its centre: only the cells there need looking at.
  for (const region of features) {
    const gx0 = Math.max(0, Math.floor((region.cx - 1.5 * region.rx) / cell - 0.5));
    const gx1 = Math.min(width - 1, Math.ceil((region.cx + 1.5 * region.rx) / cell - 0.5));
    const gy0 = Math.max(0, Math.floor((region.cy - 1.5 * region.ry) / cell - 0.5));
    const gy1 = Math.min(height - 1, Math.ceil((region.cy + 1.5 * region.ry) / cell - 0.5));
    const { cx, cy, rx, ry, size } = region;
    featureLoop(sizes.byteOffset, width, gx0, gx1, gy0, gy1, cell, cx, cy, rx, ry, size);
  }
  return { sizes, width, height, cell };
}

/**
 * Separable box blur of the given radius, edges clamped, with running sums, into the scratch buffer
 * `name`. The columns are summed a whole row at a time (one running sum per column), so memory is
 * read in order.
 */
function blur(v: Float32Array, width: number, height: number, radius: number, name: string): Float32Array {
  const n = width * height;
  const rows = scratch('detail-blur-rows', Float32Array, n);
  const out = scratch(name, Float32Array, n);
  const sums = scratch('detail-blur-sums', Float64Array, width);
  blurLoop(addressOf(v, `${name}-input`), width, height, radius, rows.byteOffset, sums.byteOffset, out.byteOffset);
  return out;
}
