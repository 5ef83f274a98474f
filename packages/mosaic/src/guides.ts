import type { Gradient } from './gradient.js';
import type { Landmarks } from './landmarks.js';
import { addressOf, scratch } from './scratch.js';
import { wasmFunction } from './wasm.js';

/**
 * The guide lines a mosaicist lays first (the silhouette, the face oval, eyes, brows, lips and the
 * photo's strong edges) and, for every cell of a grid, the nearest point on any of them. Rows of
 * tesserae are the level sets of the distance to these lines (offset curves, as in opus
 * vermiculatum), so each cell also knows which way its row runs: across the line to the nearest
 * point, turned a quarter.
 */

/** Grid cells are this many artwork pixels wide (a quarter of the artwork's resolution). */
export const GUIDE_CELL = 4;
/** Landmark lines are sampled this densely (artwork pixels). */
const LINE_STEP = 1.5;

export interface Guides {
  width: number;
  height: number;
  /** Nearest guide point per cell in artwork pixels (far off the canvas where there is no guide at all). */
  nearX: Float32Array;
  nearY: Float32Array;
  /** Distance from the cell's centre to that point, artwork pixels. */
  distance: Float32Array;
  /** The guide's own direction at that point (unit vector), for cells on a guide. */
  tangentX: Float32Array;
  tangentY: Float32Array;
}

/** Cell centre in artwork pixels. */
export function cellCentre(g: number): number {
  return g * GUIDE_CELL + GUIDE_CELL / 2;
}

/** The five guide grids' addresses: nearest point x and y, distance, direction x and y. */
type Grids = [nearX: number, nearY: number, distance: number, tangentX: number, tangentY: number];

/** Marks where the person share crosses one half between neighbouring cells (see `mark`). */
const silhouetteLoop =
  wasmFunction<(mask: number, width: number, height: number, ...grids: Grids) => void>('silhouetteGuides');
/**
 * Marks the strong edges (Sobel of CIELAB lightness at quarter resolution, above a threshold)
 * inside the person but outside the face's ellipse, whose lines come from its landmarks: hair,
 * collar, clothing folds. Thinned to their crest along the gradient, their direction is the
 * structure tensor's (gradient products smoothed over 5×5 cells), which is steadier than one
 * gradient; the crest is placed to a fraction of a cell, since a staircase of cell centres
 * would turn the rows beside it.
 */
const edgeLoop =
  wasmFunction<
    (
      gx: number,
      gy: number,
      magnitude: number,
      mask: number,
      width: number,
      height: number,
      faceX: number,
      faceY: number,
      faceRadiusX: number,
      faceRadiusY: number,
      ...grids: Grids
    ) => void
  >('edgeGuides');
const propagateLoop =
  wasmFunction<
    (
      width: number,
      height: number,
      ...grids: [...Grids, origin: number, markedTangentX: number, markedTangentY: number]
    ) => void
  >('propagateGuides');

/**
 * `gradient` is the CIELAB lightness's Sobel gradient and `mask` the person share, both at the guide
 * grid's resolution; `landmarks` in artwork pixels.
 */
export function buildGuides(
  gradient: Gradient,
  mask: Float32Array,
  width: number,
  height: number,
  landmarks: Landmarks,
): Guides {
  const n = width * height;
  const guides: Guides = {
    width,
    height,
    nearX: scratch('guide-near-x', Float32Array, n).fill(Number.NaN),
    nearY: scratch('guide-near-y', Float32Array, n).fill(Number.NaN),
    distance: scratch('guide-distance', Float32Array, n).fill(Number.POSITIVE_INFINITY),
    tangentX: scratch('guide-tangent-x', Float32Array, n).fill(0),
    tangentY: scratch('guide-tangent-y', Float32Array, n).fill(0),
  };
  const { nearX, nearY, distance, tangentX, tangentY } = guides;
  const x = nearX.byteOffset;
  const y = nearY.byteOffset;
  const d = distance.byteOffset;
  const tx = tangentX.byteOffset;
  const ty = tangentY.byteOffset;
  const maskAt = addressOf(mask, 'guide-mask');
  silhouetteLoop(maskAt, width, height, x, y, d, tx, ty);
  const face = ellipseOf(landmarks.outline);
  const { gx, gy, magnitude } = gradient;
  edgeLoop(
    addressOf(gx, 'guide-gx'),
    addressOf(gy, 'guide-gy'),
    addressOf(magnitude, 'guide-magnitude'),
    maskAt,
    width,
    height,
    face.cx,
    face.cy,
    face.rx,
    face.ry,
    x,
    y,
    d,
    tx,
    ty,
  );
  addLine(guides, landmarks.outline, true);
  addLine(guides, landmarks.rightEye, true);
  addLine(guides, landmarks.leftEye, true);
  addLine(guides, landmarks.rightBrow, false);
  addLine(guides, landmarks.leftBrow, false);
  addLine(guides, landmarks.lips, true);
  propagate(guides);
  return guides;
}

/** Records guide point (x, y) with direction (tx, ty) in its cell if nearer the centre than the cell's. */
export function mark(g: Guides, x: number, y: number, tx: number, ty: number): void {
  const gx = Math.floor(x / GUIDE_CELL);
  const gy = Math.floor(y / GUIDE_CELL);
  if (gx < 0 || gy < 0 || gx >= g.width || gy >= g.height) return;
  const i = gy * g.width + gx;
  const d = Math.hypot(x - cellCentre(gx), y - cellCentre(gy));
  if (d >= (g.distance[i] as number)) return;
  g.distance[i] = d;
  g.nearX[i] = x;
  g.nearY[i] = y;
  g.tangentX[i] = tx;
  g.tangentY[i] = ty;
}

export function addLine(g: Guides, points: Float32Array, closed: boolean): void {
  const count = points.length / 2;
  const segments = closed ? count : count - 1;
  for (let s = 0; s < segments; s++) {
    const x0 = points[s * 2] as number;
    const y0 = points[s * 2 + 1] as number;
    const e = (s + 1) % count;
    const x1 = points[e * 2] as number;
    const y1 = points[e * 2 + 1] as number;
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (length === 0) continue;
    const tx = (x1 - x0) / length;
    const ty = (y1 - y0) / length;
    const steps = Math.ceil(length / LINE_STEP);
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      mark(g, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, tx, ty);
    }
  }
}

export function ellipseOf(points: Float32Array): { cx: number; cy: number; rx: number; ry: number } {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < points.length; i += 2) {
    x0 = Math.min(x0, points[i] as number);
    x1 = Math.max(x1, points[i] as number);
    y0 = Math.min(y0, points[i + 1] as number);
    y1 = Math.max(y1, points[i + 1] as number);
  }
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: Math.max(1, (x1 - x0) / 2), ry: Math.max(1, (y1 - y0) / 2) };
}

/**
 * Nearest guide point for every cell: each cell looks at the points its already-visited
 * neighbours found, in a forward and a backward raster pass (a vector distance transform, 4SSED).
 * A cell carries only the index of the cell its point was marked in; the point's direction is
 * looked up from that once, at the end.
 */
function propagate(g: Guides): void {
  const { width, height, nearX, nearY, distance, tangentX, tangentY } = g;
  const n = width * height;
  propagateLoop(
    width,
    height,
    nearX.byteOffset,
    nearY.byteOffset,
    distance.byteOffset,
    tangentX.byteOffset,
    tangentY.byteOffset,
    scratch('guide-origin', Int32Array, n).byteOffset,
    scratch('guide-marked-tangent-x', Float32Array, n).byteOffset,
    scratch('guide-marked-tangent-y', Float32Array, n).byteOffset,
  );
}
