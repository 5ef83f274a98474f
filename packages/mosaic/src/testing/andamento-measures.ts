import { toArtwork } from '../framing.js';
import type { Point } from '../geometry.js';
import { pointsOf } from '../landmarks.js';
import { LAYOUT } from '../layout.js';
import type { RenderDetails } from '../render.js';
import { contourField, lumaOf } from './contour-field.js';
import { type GroutMeasure, groutOf } from './grout.js';
import { convexHull, tileShapes, type Window } from './tile-shapes.js';

/**
 * How hand-laid an artwork looks, measured from the engine's own output (tile labels, painted RGB,
 * the framed photo): do the tesserae follow the contours (andamento), are they cut square, are they
 * of one size within a region, and is the grout even. The method is described in the engine README
 * ("How the artwork is measured").
 */

/** Tiles whose minimum rectangle is less elongated than this count as squares: aligned either way. */
export const SQUARE_ASPECT = 1.2;
/** A tessera is compared with a contour when its centre lies within this many tessera widths of it. */
export const EDGE_REACH = 2;
/** Mean person share from which a tile is the visitor's or outlines the visitor. */
export const FIGURE_SHARE = 0.1;

export interface OrientationMeasure {
  /** Median angle between tessera and contour, degrees (squares 0–45°, elongated tiles 0–90°). */
  median: number;
  /** The same median if every tessera lay at a random angle, for these shares of squares and elongated tiles. */
  random: number;
  /**
   * The same median with each tessera paired with another measured tessera's contour (a fixed
   * shuffle): chance level for this photo's own mix of tile and contour directions.
   */
  shuffled: number;
  tiles: number;
  /** Share of the measured tiles that count as squares. */
  squares: number;
  /** The gradient that counted as a strong edge (luma levels per pixel). */
  threshold: number;
}

export interface SizeSpread {
  tiles: number;
  /** Median tile area (px²) and its quartiles. */
  median: number;
  q1: number;
  q3: number;
  /** Standard deviation ÷ mean of the tile areas. */
  cv: number;
}

export type Region = 'face' | 'body' | 'background';

export interface AndamentoMeasures {
  orientation: OrientationMeasure;
  /** Tile area ÷ its minimum bounding rectangle's area, over every whole tile: median and lower quartile. */
  rectangularity: { median: number; q1: number; tiles: number };
  size: Record<Region, SizeSpread>;
  grout: GroutMeasure;
}

/** What the measures need: a label map, the painted RGB and the photo under it, all one size. */
export interface MeasureInput {
  width: number;
  height: number;
  labels: Uint16Array;
  painted: Uint8Array;
  /** The photo as framed under the artwork (RGB). */
  photo: Uint8Array;
  /** Mean person share (0–1) of each tile. */
  personByTile: Float32Array;
  /** The part of the artwork that shows (the frame covers the rest). */
  window: Window;
  /** The face outline in the same pixels: tiles whose centre falls inside are the face. */
  faceOutline: Point[];
}

function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Angle between a tile's axis and a contour direction, both radians: squares fold at 45°, others at 90°. */
export function axisError(tileAngle: number, contour: number, square: boolean): number {
  const period = square ? Math.PI / 2 : Math.PI;
  let d = Math.abs(tileAngle - contour) % period;
  if (d > period / 2) d = period - d;
  return (d * 180) / Math.PI;
}

/**
 * The median angle random orientations would give: uniform on 0–45° for squares and 0–90° for
 * elongated tiles, mixed in these shares.
 */
export function randomMedian(squareShare: number): number {
  // The mixture's distribution function below 45° is share·x/45 + (1 − share)·x/90.
  const below45 = squareShare + (1 - squareShare) / 2;
  if (below45 >= 0.5) return 0.5 / (squareShare / 45 + (1 - squareShare) / 90);
  return 45 + ((0.5 - below45) / (1 - squareShare)) * 90;
}

interface Measured {
  angle: number;
  square: boolean;
  contour: number;
}

/** Each tessera against the contour of another, picked by a fixed-seed shuffle; sorted. */
function shuffledErrors(measured: Measured[]): number[] {
  const order = measured.map((_, i) => i);
  let state = 1;
  for (let i = order.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return measured
    .map((m, i) => axisError(m.angle, (measured[order[i] as number] as Measured).contour, m.square))
    .sort((a, b) => a - b);
}

function pointInPolygon(polygon: readonly number[], x: number, y: number): boolean {
  let inside = false;
  const n = polygon.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = polygon[i * 2] as number;
    const yi = polygon[i * 2 + 1] as number;
    const xj = polygon[j * 2] as number;
    const yj = polygon[j * 2 + 1] as number;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function spread(areas: number[]): SizeSpread {
  const sorted = [...areas].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  const variance = sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, sorted.length);
  return {
    tiles: sorted.length,
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    cv: mean > 0 ? Math.sqrt(variance) / mean : Number.NaN,
  };
}

export function measureArtwork(input: MeasureInput): AndamentoMeasures {
  const { width, height, labels, personByTile, window } = input;
  const shapes = tileShapes(labels, width, window, personByTile.length);
  // Contours are looked for on the visitor only: the background follows the campaign pattern.
  const visitor = new Uint8Array(width * height);
  for (let y = window.top; y < window.bottom; y++) {
    for (let x = window.left; x < window.right; x++) {
      const i = y * width + x;
      if ((personByTile[labels[i] as number] as number) >= 0.5) visitor[i] = 1;
    }
  }
  const field = contourField(lumaOf(input.photo, width, height), width, height, visitor);
  const face = convexHull(input.faceOutline.flatMap((p) => [p.x, p.y]));

  const errors: number[] = [];
  const measured: Measured[] = [];
  let squares = 0;
  const ratios: number[] = [];
  const areas: Record<Region, number[]> = { face: [], body: [], background: [] };
  for (let t = 0; t < shapes.count; t++) {
    if (!shapes.complete[t]) continue;
    const area = shapes.area[t] as number;
    const long = shapes.long[t] as number;
    const short = shapes.short[t] as number;
    const cx = shapes.centreX[t] as number;
    const cy = shapes.centreY[t] as number;
    ratios.push(area / (long * short));
    const person = personByTile[t] as number;
    const region: Region =
      person < 0.5 ? 'background' : face.length >= 6 && pointInPolygon(face, cx, cy) ? 'face' : 'body';
    areas[region].push(area);
    if (person < FIGURE_SHARE) continue;
    const centre = Math.min(height - 1, Math.floor(cy)) * width + Math.min(width - 1, Math.floor(cx));
    const edge = field.nearest[centre] as number;
    if (edge < 0) continue;
    const ex = (edge % width) + 0.5;
    const ey = Math.floor(edge / width) + 0.5;
    if (Math.hypot(ex - cx, ey - cy) > EDGE_REACH * Math.sqrt(area)) continue;
    const square = long < SQUARE_ASPECT * short;
    if (square) squares++;
    errors.push(axisError(shapes.angle[t] as number, field.tangent[edge] as number, square));
    measured.push({ angle: shapes.angle[t] as number, square, contour: field.tangent[edge] as number });
  }
  const shuffled = shuffledErrors(measured);
  errors.sort((a, b) => a - b);
  ratios.sort((a, b) => a - b);
  const squareShare = errors.length ? squares / errors.length : 0;
  return {
    orientation: {
      median: quantile(errors, 0.5),
      random: randomMedian(squareShare),
      shuffled: quantile(shuffled, 0.5),
      tiles: errors.length,
      squares: squareShare,
      threshold: field.threshold,
    },
    rectangularity: { median: quantile(ratios, 0.5), q1: quantile(ratios, 0.25), tiles: ratios.length },
    size: { face: spread(areas.face), body: spread(areas.body), background: spread(areas.background) },
    grout: groutOf(labels, input.painted, width, window),
  };
}

/** The measures of one render (`renderDetailed`'s output), over the 4:5 artwork's window. */
export function measureRender(details: RenderDetails): AndamentoMeasures {
  const { width, height, border, band } = LAYOUT;
  const outline = pointsOf(details.face.landmarks.outline).map((p) => toArtwork(details.framing, p));
  return measureArtwork({
    width,
    height,
    labels: details.labels,
    painted: details.painted,
    photo: details.framed.data,
    personByTile: details.personByTile,
    window: { left: border, top: border, right: width - border, bottom: height - band },
    faceOutline: outline,
  });
}
