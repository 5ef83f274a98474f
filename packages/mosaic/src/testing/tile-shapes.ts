/**
 * The shape of every tessera in a label map (one tile index per pixel): its area, centroid and
 * minimum-area bounding rectangle, found by rotating calipers on the convex hull of its pixels'
 * centres, each side then lengthened by one pixel (half a pixel beyond the outermost centres at
 * either end). A hull of pixel corners would charge a digitised stone for its staircase: a perfect
 * 8-px square turned 30° scored 0.80 that way, its pixels' corners poking out of the square it
 * stands for on every side, while an axis-aligned one scored 1. Read by the artwork measures
 * (`andamento-measures.ts`).
 */

/** The part of the label map that shows, right and bottom exclusive. */
export interface Window {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Rectangle {
  area: number;
  /** Side lengths, long first. */
  long: number;
  short: number;
  /** Direction of the long side in radians, 0 ≤ angle < π (x right, y down). */
  angle: number;
}

export interface TileShapes {
  count: number;
  /** Pixels of each tile inside the window. */
  area: Uint32Array;
  centreX: Float32Array;
  centreY: Float32Array;
  /** 1 where the tile lies wholly inside the window (a tile cut by the frame has no true shape). */
  complete: Uint8Array;
  /** Its minimum bounding rectangle (long side, short side, long side's angle); 0 for empty tiles. */
  long: Float32Array;
  short: Float32Array;
  angle: Float32Array;
}

/**
 * The convex hull (counter-clockwise in y-down pixels, no collinear points) of a flat list of
 * x, y pairs, by Andrew's monotone chain.
 */
export function convexHull(xy: ArrayLike<number>): number[] {
  const order = Array.from({ length: xy.length / 2 }, (_, i) => i).sort(
    (a, b) => (xy[a * 2] as number) - (xy[b * 2] as number) || (xy[a * 2 + 1] as number) - (xy[b * 2 + 1] as number),
  );
  const cross = (o: number, a: number, b: number) => {
    const ox = xy[o * 2] as number;
    const oy = xy[o * 2 + 1] as number;
    return (
      ((xy[a * 2] as number) - ox) * ((xy[b * 2 + 1] as number) - oy) -
      ((xy[a * 2 + 1] as number) - oy) * ((xy[b * 2] as number) - ox)
    );
  };
  const chain = (points: number[]) => {
    const out: number[] = [];
    for (const p of points) {
      while (out.length >= 2 && cross(out[out.length - 2] as number, out[out.length - 1] as number, p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  const hull = [...chain(order), ...chain([...order].reverse())];
  return hull.flatMap((i) => [xy[i * 2] as number, xy[i * 2 + 1] as number]);
}

/**
 * The convex hull of a tile from its extreme corners row by row (entries `from`–`to` of `minX` and
 * `maxX`, the first on row `y0`). The points come already sorted by row, so the monotone chain
 * runs without a sort; rows a tile skips (it may be cut in two) hold no corners.
 */
function rowHull(minX: Int32Array, maxX: Int32Array, from: number, to: number, y0: number): number[] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = from; k < to; k++) {
    const right = maxX[k] as number;
    if (right < 0) continue;
    const y = y0 + k - from;
    xs.push(minX[k] as number);
    ys.push(y);
    if (right !== minX[k]) {
      xs.push(right);
      ys.push(y);
    }
  }
  const cross = (o: number, a: number, b: number) =>
    ((xs[a] as number) - (xs[o] as number)) * ((ys[b] as number) - (ys[o] as number)) -
    ((ys[a] as number) - (ys[o] as number)) * ((xs[b] as number) - (xs[o] as number));
  const chain = (from: number, step: number) => {
    const out: number[] = [];
    for (let p = from; p >= 0 && p < xs.length; p += step) {
      while (out.length >= 2 && cross(out[out.length - 2] as number, out[out.length - 1] as number, p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  const hull = [...chain(0, 1), ...chain(xs.length - 1, -1)];
  return hull.flatMap((p) => [xs[p] as number, ys[p] as number]);
}

/**
 * The smallest rectangle around a convex polygon (flat x, y pairs): one of its sides lies along an
 * edge of the polygon, so each edge direction is tried (rotating calipers, O(n²) here: tiles
 * have a few dozen hull points).
 */
export function minimumRectangle(hull: readonly number[]): Rectangle {
  const n = hull.length / 2;
  let best: Rectangle = { area: Number.POSITIVE_INFINITY, long: 0, short: 0, angle: 0 };
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ex = (hull[j * 2] as number) - (hull[i * 2] as number);
    const ey = (hull[j * 2 + 1] as number) - (hull[i * 2 + 1] as number);
    const length = Math.hypot(ex, ey);
    if (length === 0) continue;
    const ux = ex / length;
    const uy = ey / length;
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < n; k++) {
      const px = hull[k * 2] as number;
      const py = hull[k * 2 + 1] as number;
      const u = px * ux + py * uy;
      const v = -px * uy + py * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const along = maxU - minU;
    const across = maxV - minV;
    const area = along * across;
    if (area < best.area - 1e-9) {
      const direction = along >= across ? Math.atan2(uy, ux) : Math.atan2(ux, -uy);
      const angle = ((direction % Math.PI) + Math.PI) % Math.PI;
      best = { area, long: Math.max(along, across), short: Math.min(along, across), angle };
    }
  }
  return best;
}

/**
 * Every tile's shape inside `window`. Each row of a tile adds its outermost pixels' centres, whose
 * hull is the hull of all the tile's pixel centres.
 */
export function tileShapes(labels: Uint16Array, width: number, window: Window, count?: number): TileShapes {
  const { left, top, right, bottom } = window;
  let tiles = count ?? 0;
  if (count === undefined) {
    for (let y = top; y < bottom; y++)
      for (let x = left; x < right; x++) tiles = Math.max(tiles, (labels[y * width + x] as number) + 1);
  }
  const area = new Uint32Array(tiles);
  const sumX = new Float64Array(tiles);
  const sumY = new Float64Array(tiles);
  const firstRow = new Int32Array(tiles).fill(-1);
  const lastRow = new Int32Array(tiles);
  const complete = new Uint8Array(tiles).fill(1);
  const eachRun = (visit: (t: number, x0: number, x1: number, y: number) => void) => {
    for (let y = top; y < bottom; y++) {
      const row = y * width;
      for (let x = left; x < right; ) {
        const t = labels[row + x] as number;
        let end = x + 1;
        while (end < right && labels[row + end] === t) end++;
        visit(t, x, end, y);
        x = end;
      }
    }
  };
  eachRun((t, x0, x1, y) => {
    const n = x1 - x0;
    area[t] = (area[t] as number) + n;
    sumX[t] = (sumX[t] as number) + (n * (x0 + x1 - 1)) / 2;
    sumY[t] = (sumY[t] as number) + n * y;
    if (firstRow[t] === -1) firstRow[t] = y;
    lastRow[t] = y;
    if (x0 === left || x1 === right || y === top || y === bottom - 1) complete[t] = 0;
  });
  // The leftmost and rightmost pixel (centre) on every row of each tile: one compressed table,
  // `offsets` into it per tile.
  const offsets = new Uint32Array(tiles + 1);
  for (let t = 0; t < tiles; t++) {
    const rows = firstRow[t] === -1 ? 0 : (lastRow[t] as number) - (firstRow[t] as number) + 1;
    offsets[t + 1] = (offsets[t] as number) + rows;
  }
  const minX = new Int32Array(offsets[tiles] as number).fill(2 ** 30);
  const maxX = new Int32Array(offsets[tiles] as number).fill(-1);
  eachRun((t, x0, x1, y) => {
    const k = (offsets[t] as number) + y - (firstRow[t] as number);
    if (x0 < (minX[k] as number)) minX[k] = x0;
    if (x1 - 1 > (maxX[k] as number)) maxX[k] = x1 - 1;
  });
  const shapes: TileShapes = {
    count: tiles,
    area,
    centreX: new Float32Array(tiles),
    centreY: new Float32Array(tiles),
    complete,
    long: new Float32Array(tiles),
    short: new Float32Array(tiles),
    angle: new Float32Array(tiles),
  };
  for (let t = 0; t < tiles; t++) {
    const a = area[t] as number;
    if (a === 0) {
      complete[t] = 0;
      continue;
    }
    // Pixel centres sit at +0.5 in corner coordinates.
    shapes.centreX[t] = (sumX[t] as number) / a + 0.5;
    shapes.centreY[t] = (sumY[t] as number) / a + 0.5;
    const rectangle = minimumRectangle(
      rowHull(minX, maxX, offsets[t] as number, offsets[t + 1] as number, firstRow[t] as number),
    );
    shapes.long[t] = rectangle.long + 1;
    shapes.short[t] = rectangle.short + 1;
    shapes.angle[t] = rectangle.angle;
  }
  return shapes;
}
