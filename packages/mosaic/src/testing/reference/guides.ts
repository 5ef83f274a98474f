import type { Gradient } from '../../gradient.js';
import { addLine, cellCentre, ellipseOf, GUIDE_CELL, type Guides, mark } from '../../guides.js';
import type { Landmarks } from '../../landmarks.js';

/** Strong edges (Sobel of CIELAB lightness at quarter resolution) become guides above this. */
const EDGE_THRESHOLD = 60;
/** Stands for "no guide point": farther than any canvas reaches. */
const FAR = 1e6;

/** The JavaScript the engine's WebAssembly guide loops replaced, kept as the reference their test compares with. */
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
    nearX: new Float32Array(n).fill(Number.NaN),
    nearY: new Float32Array(n).fill(Number.NaN),
    distance: new Float32Array(n).fill(Number.POSITIVE_INFINITY),
    tangentX: new Float32Array(n).fill(0),
    tangentY: new Float32Array(n).fill(0),
  };
  addSilhouette(guides, mask);
  addEdges(guides, gradient, mask, landmarks.outline);
  for (const [line, closed] of [
    [landmarks.outline, true],
    [landmarks.rightEye, true],
    [landmarks.leftEye, true],
    [landmarks.rightBrow, false],
    [landmarks.leftBrow, false],
    [landmarks.lips, true],
  ] as const) {
    addLine(guides, line, closed);
  }
  propagate(guides);
  return guides;
}

/** Where the person share crosses one half between two neighbouring cells, to a fraction of a cell. */
export function addSilhouette(g: Guides, mask: Float32Array): void {
  const { width, height } = g;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const inside = (mask[i] as number) >= 0.5;
      // Most cells are on the same side as both neighbours they are compared with.
      if (
        (x + 1 >= width || (mask[i + 1] as number) >= 0.5 === inside) &&
        (y + 1 >= height || (mask[i + width] as number) >= 0.5 === inside)
      ) {
        continue;
      }
      const m = (mask[i] as number) - 0.5;
      for (let axis = 0; axis < 2; axis++) {
        if (axis === 0 ? x + 1 >= width : y + 1 >= height) continue;
        const j = axis === 0 ? i + 1 : i + width;
        const o = (mask[j] as number) - 0.5;
        if (m < 0 === o < 0) continue;
        const t = m / (m - o);
        const px = cellCentre(x) + (axis === 0 ? t * GUIDE_CELL : 0);
        const py = cellCentre(y) + (axis === 1 ? t * GUIDE_CELL : 0);
        // The silhouette runs across the mask's gradient.
        const gx =
          (mask[Math.min(width - 1, x + 1) + y * width] as number) - (mask[Math.max(0, x - 1) + y * width] as number);
        const gy =
          (mask[x + Math.min(height - 1, y + 1) * width] as number) - (mask[x + Math.max(0, y - 1) * width] as number);
        const norm = Math.hypot(gx, gy) || 1;
        mark(g, px, py, -gy / norm, gx / norm);
      }
    }
  }
}

/**
 * Strong edges inside the person but outside the face (whose lines come from its landmarks):
 * hair, collar, clothing folds. Thinned to their crest along the gradient, their direction is the
 * structure tensor's (gradient products smoothed over 3×3 cells), which is steadier than one
 * gradient.
 */
export function addEdges(g: Guides, gradient: Gradient, mask: Float32Array, outline: Float32Array): void {
  const { width, height } = g;
  const { gx: gxs, gy: gys, magnitude } = gradient;
  const face = ellipseOf(outline);
  for (let y = 2; y < height - 2; y++) {
    const py = cellCentre(y);
    for (let x = 2, i = y * width + 2; x < width - 2; x++, i++) {
      const m = magnitude[i] as number;
      if (m < EDGE_THRESHOLD || (mask[i] as number) < 0.6) continue;
      const px = cellCentre(x);
      const fx = (px - face.cx) / face.rx;
      const fy = (py - face.cy) / face.ry;
      if (fx * fx + fy * fy < 1) continue;
      // Crest along the gradient: the neighbour on either side across the edge is weaker.
      const gx = gxs[i] as number;
      const gy = gys[i] as number;
      const ox = Math.round(gx / m);
      const oy = Math.round(gy / m);
      const ahead = magnitude[i + oy * width + ox] as number;
      const behind = magnitude[i - oy * width - ox] as number;
      if (ahead > m || behind >= m) continue;
      let jxx = 0;
      let jxy = 0;
      let jyy = 0;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const j = i + dy * width + dx;
          const u = gxs[j] as number;
          const v = gys[j] as number;
          jxx += u * u;
          jxy += u * v;
          jyy += v * v;
        }
      }
      // The tensor's dominant direction is the gradient's; the edge runs a quarter turn from it.
      const angle = 0.5 * Math.atan2(2 * jxy, jxx - jyy);
      const nx = Math.cos(angle);
      const ny = Math.sin(angle);
      // The crest to a fraction of a cell: the top of a parabola through the three magnitudes
      // across the edge. A staircase of cell centres would turn the rows beside it.
      const curve = behind - 2 * m + ahead;
      const shift = curve < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (behind - ahead)) / curve)) : 0;
      mark(g, px + shift * GUIDE_CELL * ox, py + shift * GUIDE_CELL * oy, -ny, nx);
    }
  }
}

/**
 * Nearest guide point for every cell: each cell looks at the points its already-visited
 * neighbours found, in a forward and a backward raster pass (a vector distance transform, 4SSED).
 * Squared distances until the end: this runs for every cell of the grid twice a render, so the passes are
 * written out with locals, and a cell carries only the index of the cell its point was marked in;
 * the point's direction is looked up from that once, at the end.
 */
export function propagate(g: Guides): void {
  const { width, height, nearX, nearY, distance, tangentX, tangentY } = g;
  const n = width * height;
  const origin = new Int32Array(n);
  const markedX = new Float32Array(n);
  const markedY = new Float32Array(n);
  markedX.set(tangentX);
  markedY.set(tangentY);
  // Cells without a guide point look at one far away instead of checking for none.
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(nearX[i] as number)) {
      nearX[i] = FAR;
      nearY[i] = FAR;
      distance[i] = FAR * FAR;
      origin[i] = -1;
    } else {
      distance[i] = (distance[i] as number) * (distance[i] as number);
      origin[i] = i;
    }
  }
  // Down the rows looking up and left, then right to left; up the rows looking down and right,
  // then left to right. Four-neighbour passes: the nearest point's position travels exactly, so
  // the diagonals add little.
  for (let y = 0; y < height; y++) {
    const py = cellCentre(y);
    const row = y * width;
    for (let x = 0, i = row; x < width; x++, i++) {
      const px = cellCentre(x);
      let best = distance[i] as number;
      if (y > 0) {
        const j = i - width;
        const qx = nearX[j] as number;
        const qy = nearY[j] as number;
        const d = (px - qx) * (px - qx) + (py - qy) * (py - qy);
        if (d < best) {
          best = Math.fround(d);
          distance[i] = best;
          nearX[i] = qx;
          nearY[i] = qy;
          origin[i] = origin[j] as number;
        }
      }
      if (x > 0) {
        const j = i - 1;
        const qx = nearX[j] as number;
        const qy = nearY[j] as number;
        const d = (px - qx) * (px - qx) + (py - qy) * (py - qy);
        if (d < best) {
          distance[i] = d;
          nearX[i] = qx;
          nearY[i] = qy;
          origin[i] = origin[j] as number;
        }
      }
    }
    sweep(g, origin, row, width - 2, -1, py);
  }
  for (let y = height - 1; y >= 0; y--) {
    const py = cellCentre(y);
    const row = y * width;
    for (let x = width - 1, i = row + x; x >= 0; x--, i--) {
      const px = cellCentre(x);
      let best = distance[i] as number;
      if (y + 1 < height) {
        const j = i + width;
        const qx = nearX[j] as number;
        const qy = nearY[j] as number;
        const d = (px - qx) * (px - qx) + (py - qy) * (py - qy);
        if (d < best) {
          best = Math.fround(d);
          distance[i] = best;
          nearX[i] = qx;
          nearY[i] = qy;
          origin[i] = origin[j] as number;
        }
      }
      if (x + 1 < width) {
        const j = i + 1;
        const qx = nearX[j] as number;
        const qy = nearY[j] as number;
        const d = (px - qx) * (px - qx) + (py - qy) * (py - qy);
        if (d < best) {
          distance[i] = d;
          nearX[i] = qx;
          nearY[i] = qy;
          origin[i] = origin[j] as number;
        }
      }
    }
    sweep(g, origin, row, 1, 1, py);
  }
  for (let i = 0; i < n; i++) {
    distance[i] = Math.sqrt(distance[i] as number);
    const o = origin[i] as number;
    tangentX[i] = o < 0 ? 0 : (markedX[o] as number);
    tangentY[i] = o < 0 ? 0 : (markedY[o] as number);
  }
}

/** One row's pass from column `from` in direction `step`, each cell looking at the one it came from. */
function sweep(g: Guides, origin: Int32Array, row: number, from: number, step: number, py: number): void {
  const { width, nearX, nearY, distance } = g;
  for (let x = from, i = row + from; x >= 0 && x < width; x += step, i += step) {
    const j = i - step;
    const px = cellCentre(x);
    const qx = nearX[j] as number;
    const qy = nearY[j] as number;
    const d = (px - qx) * (px - qx) + (py - qy) * (py - qy);
    if (d < (distance[i] as number)) {
      distance[i] = d;
      nearX[i] = qx;
      nearY[i] = qy;
      origin[i] = origin[j] as number;
    }
  }
}
