import { type SizeMap, TILE_SIZES } from '../../detail.js';
import { type Point, type Window, wholeImage } from '../../geometry.js';
import { cellCentre, GUIDE_CELL, type Guides } from '../../guides.js';
import { forEachRingPlace } from '../../pattern.js';
import { ALONG, OUTLINE_SIZE, type Seeds, SPACING } from '../../seeds.js';
import { settleStones } from './settle.js';

/**
 * The sizes tesserae are cut in. The size map varies smoothly; rows of one size read as laid by
 * hand, rows whose stones shrink and grow from one to the next do not.
 */
const FAMILIES = [7.5, 9.5, 11, 13, 17, 22, 34];
/** Each family takes the sizes up to the geometric mean with the next one. */
const LIMITS = FAMILIES.slice(1).map((next, i) => Math.sqrt(next * (FAMILIES[i] as number)));

function cut(size: number): number {
  let f = 0;
  while (f < LIMITS.length && size > (LIMITS[f] as number)) f++;
  return FAMILIES[f] as number;
}

/** Stones from this size (artwork pixels) keep ALONG along their row. */
const ALONG_FROM = 12;
/** Holes between rows get a tessera of their own only where one fits whole. */
const HOLE = 0.8;
/** A cell proposes a place on its row only when it lies this close to the row's middle line. */
const NEAR_ROW = 2.9;
/** See `Layer.covered`: HOLE / 2, so a covered place is too near for a row or a hole alike. */
const COVERED = 0.4;
/** Buckets of the seed index, artwork pixels. */
const BUCKET = 16;

/**
 * The JavaScript the engine's WebAssembly seed loops replaced, kept as the reference their test
 * compares with: `placeSeeds` (`seeds.ts`).
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
  const seeds = laySeeds(map, guides, personShare, width, height, centre, random, within);
  settleStones(seeds, width, height);
  return seeds;
}

/** `placeSeeds` up to the settling: the stones as laid. */
export function laySeeds(
  map: SizeMap,
  guides: Guides,
  personShare: Float32Array,
  width: number,
  height: number,
  centre: Point,
  random: () => number,
  within: Window = wholeImage(width, height),
): Seeds {
  const laid = new Layer(width, height);
  const reaches = (x: number, y: number, size: number) =>
    x > within.left - size && x < within.right + size && y > within.top - size && y < within.bottom + size;
  const { width: gw, height: gh, nearX, nearY, distance, tangentX, tangentY } = guides;
  const personAt = (x: number, y: number) => {
    const gx = Math.min(gw - 1, Math.max(0, Math.floor(x / map.cell)));
    const gy = Math.min(gh - 1, Math.max(0, Math.floor(y / map.cell)));
    return (personShare[gy * gw + gx] as number) >= 0.5;
  };

  // Places on the rows, with their distance from the guide line as priority.
  // At most one per cell, six numbers each: priority, x, y, size, row direction.
  const candidates = new Float32Array(gw * gh * 6);
  let count = 0;
  for (let gy = 0, i = 0; gy < gh; gy++) {
    const py = cellCentre(gy);
    for (let gx = 0; gx < gw; gx++, i++) {
      const d = distance[i] as number;
      if (!(d > 0.5) || !Number.isFinite(d)) continue;
      const person = (personShare[i] as number) >= 0.5;
      const size = person ? cut(map.sizes[i] as number) : OUTLINE_SIZE;
      const k = Math.max(0, Math.round(d / size - 0.5));
      if (!person && k > 0) continue;
      const px = cellCentre(gx);
      const qx = nearX[i] as number;
      const qy = nearY[i] as number;
      const nx = (px - qx) / d;
      const ny = (py - qy) / d;
      const r = (k + 0.5) * size;
      const x = qx + nx * r;
      const y = qy + ny * r;
      if (Math.abs(x - px) > NEAR_ROW || Math.abs(y - py) > NEAR_ROW) continue;
      if (x < 0 || y < 0 || x >= width || y >= height || !reaches(x, y, size)) continue;
      // The place must lie in the same guide's territory and on the same side of the silhouette.
      const tx = Math.min(gw - 1, Math.floor(x / map.cell));
      const ty = Math.min(gh - 1, Math.floor(y / map.cell));
      const t = ty * gw + tx;
      if (Math.abs((distance[t] as number) - r) > 0.3 * size) continue;
      if ((personShare[t] as number) >= 0.5 !== person) continue;
      // The first row lies along the guide itself; further rows along their offset curves, which
      // turn around a line's ends and corners.
      let cos = -ny;
      let sin = nx;
      if (k === 0 && (tangentX[i] !== 0 || tangentY[i] !== 0)) {
        // Of the two directions along the guide, the one that keeps the tile's frame turning the same way.
        const flip = (tangentX[i] as number) * cos + (tangentY[i] as number) * sin < 0 ? -1 : 1;
        cos = (tangentX[i] as number) * flip;
        sin = (tangentY[i] as number) * flip;
      }
      const o = count++ * 6;
      candidates[o] = person ? r : -1;
      candidates[o + 1] = x;
      candidates[o + 2] = y;
      candidates[o + 3] = size;
      candidates[o + 4] = cos;
      candidates[o + 5] = sin;
    }
  }
  const order = orderOf(candidates, count);
  for (const c of order) {
    const o = c * 6;
    const person = (candidates[o] as number) >= 0;
    // A row's priority is its distance from the guide line, half a size for the row along it.
    const line = !person || (candidates[o] as number) < (candidates[o + 3] as number);
    laid.tryAdd(
      candidates[o + 1] as number,
      candidates[o + 2] as number,
      candidates[o + 3] as number,
      person ? 1 : 0,
      person ? 0 : 1,
      candidates[o + 4] as number,
      candidates[o + 5] as number,
      SPACING,
      (candidates[o + 3] as number) >= ALONG_FROM ? ALONG : SPACING,
      line ? 1 : 0,
    );
  }

  // The background's rings around the face.
  const ring = TILE_SIZES.background;
  forEachRingPlace(centre, ring, wholeImage(width, height), random, (x, y, cos, sin) => {
    const cx = Math.min(width - 1, Math.max(0, x));
    const cy = Math.min(height - 1, Math.max(0, y));
    if (reaches(cx, cy, ring) && !personAt(cx, cy)) laid.tryAdd(cx, cy, ring, 0, 0, cos, sin, SPACING, ALONG);
  });

  // Holes where rows met at an angle or ran out.
  for (let gy = 0; gy < gh; gy++) {
    const y = cellCentre(gy);
    for (let gx = 0; gx < gw; gx++) {
      const i = gy * gw + gx;
      if (laid.covers(i)) continue;
      const person = (personShare[i] as number) >= 0.5;
      const size = person ? cut(map.sizes[i] as number) : ring;
      // Stones from 13 px up are looked for on every other cell: a hole one fits in spans several.
      if (size >= 13 && ((gx | gy) & 1) === 1) continue;
      const x = cellCentre(gx);
      if (!reaches(x, y, size)) continue;
      let cos: number;
      let sin: number;
      if (person) {
        const d = distance[i] as number;
        if (d > 1 && Number.isFinite(d)) {
          cos = -(y - (nearY[i] as number)) / d;
          sin = (x - (nearX[i] as number)) / d;
        } else {
          cos = (tangentX[i] as number) || 1;
          sin = tangentY[i] as number;
        }
      } else {
        const r = Math.hypot(x - centre.x, y - centre.y) || 1;
        cos = -(y - centre.y) / r;
        sin = (x - centre.x) / r;
      }
      laid.tryAdd(x, y, size, person ? 1 : 0, 0, cos, sin, HOLE);
    }
  }
  return laid.seeds();
}

/** Candidate indices: background outline first, then by distance from the guide line (1-px bins). */
function orderOf(candidates: Float32Array, count: number): Int32Array {
  const bins = 1026;
  const starts = new Int32Array(bins + 1);
  const binOf = (c: number) => Math.min(bins - 1, Math.round((candidates[c * 6] as number) + 1));
  for (let c = 0; c < count; c++) starts[binOf(c) + 1] = (starts[binOf(c) + 1] as number) + 1;
  for (let b = 0; b < bins; b++) starts[b + 1] = (starts[b + 1] as number) + (starts[b] as number);
  const order = new Int32Array(count);
  for (let c = 0; c < count; c++) {
    const b = binOf(c);
    order[starts[b] as number] = c;
    starts[b] = (starts[b] as number) + 1;
  }
  return order;
}

/** The tesserae laid so far, bucketed so a new place is checked against its neighbours only. */
class Layer {
  // Typed arrays with room to spare, doubled when full: the search reads them for every place tried.
  private count = 0;
  private xs = new Float64Array(1024);
  private ys = new Float64Array(1024);
  private sizes = new Float64Array(1024);
  private people = new Uint8Array(1024);
  private outlines = new Uint8Array(1024);
  private lines = new Uint8Array(1024);
  private coss = new Float64Array(1024);
  private sins = new Float64Array(1024);
  private next = new Int32Array(1024);
  private readonly heads: Int32Array;
  private readonly columns: number;
  private readonly rows: number;
  /** The largest tessera laid so far: no neighbour lies farther than it and a new one need keep apart. */
  private reach = 0;
  /**
   * Guide-grid cells whose centre lies within COVERED of a tessera's size from its centre: any
   * place in them is too near that tessera (a tile is at least 7.5 px, and 0.4 of that is more
   * than a cell's half-diagonal), which settles most places without a search.
   */
  private readonly covered: Uint8Array;
  private readonly gridWidth: number;
  private readonly gridHeight: number;

  constructor(width: number, height: number) {
    this.columns = Math.ceil(width / BUCKET) + 1;
    this.rows = Math.ceil(height / BUCKET) + 1;
    this.heads = new Int32Array(this.columns * this.rows).fill(-1);
    this.gridWidth = Math.ceil(width / GUIDE_CELL);
    this.gridHeight = Math.ceil(height / GUIDE_CELL);
    this.covered = new Uint8Array(this.gridWidth * this.gridHeight);
  }

  /** Whether guide-grid cell `i` is covered (see `covered`). */
  covers(i: number): boolean {
    return this.covered[i] === 1;
  }

  private isCovered(x: number, y: number): boolean {
    const gx = Math.floor(x / GUIDE_CELL);
    const gy = Math.floor(y / GUIDE_CELL);
    if (gx < 0 || gy < 0 || gx >= this.gridWidth || gy >= this.gridHeight) return false;
    return this.covered[gy * this.gridWidth + gx] === 1;
  }

  private cover(x: number, y: number, size: number): void {
    const r = COVERED * size;
    const gx0 = Math.max(0, Math.ceil((x - r) / GUIDE_CELL - 0.5));
    const gx1 = Math.min(this.gridWidth - 1, Math.floor((x + r) / GUIDE_CELL - 0.5));
    const gy0 = Math.max(0, Math.ceil((y - r) / GUIDE_CELL - 0.5));
    const gy1 = Math.min(this.gridHeight - 1, Math.floor((y + r) / GUIDE_CELL - 0.5));
    for (let gy = gy0; gy <= gy1; gy++) {
      const dy = cellCentre(gy) - y;
      for (let gx = gx0; gx <= gx1; gx++) {
        const dx = cellCentre(gx) - x;
        if (dx * dx + dy * dy <= r * r) this.covered[gy * this.gridWidth + gx] = 1;
      }
    }
  }

  tryAdd(
    x: number,
    y: number,
    size: number,
    person: number,
    outline: number,
    cos: number,
    sin: number,
    spacing: number,
    along = spacing,
    line = 0,
  ): boolean {
    if (this.isCovered(x, y)) return false;
    const radius = (Math.max(spacing, along) * (size + this.reach)) / 2;
    const bx0 = Math.max(0, Math.floor((x - radius) / BUCKET));
    const bx1 = Math.min(this.columns - 1, Math.floor((x + radius) / BUCKET));
    const by0 = Math.max(0, Math.floor((y - radius) / BUCKET));
    const by1 = Math.min(this.rows - 1, Math.floor((y + radius) / BUCKET));
    const { xs, ys, sizes, next, heads } = this;
    // The ellipse lies inside the circle of radius limit · the larger share (scaled by the row
    // vector's length): a neighbour outside it, by a margin far above rounding, cannot overlap and
    // is settled without turning into the new tessera's frame.
    const share = Math.max(spacing, along);
    const circle = (share * share * 1.01) / (cos * cos + sin * sin);
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        for (let s = heads[by * this.columns + bx] as number; s >= 0; s = next[s] as number) {
          const dx = (xs[s] as number) - x;
          const dy = (ys[s] as number) - y;
          const reach = size + (sizes[s] as number);
          if (dx * dx + dy * dy >= reach * reach * 0.25 * circle) continue;
          // The offset in the new tessera's frame, each side in its own share of the mean size:
          // inside that ellipse the two stones would overlap.
          const u = (dx * cos + dy * sin) / along;
          const v = (dy * cos - dx * sin) / spacing;
          const limit = (size + (sizes[s] as number)) / 2;
          if (u * u + v * v < limit * limit) return false;
        }
      }
    }
    if (this.count === this.xs.length) this.grow();
    const s = this.count++;
    const b = Math.floor(y / BUCKET) * this.columns + Math.floor(x / BUCKET);
    this.next[s] = heads[b] as number;
    heads[b] = s;
    if (size > this.reach) this.reach = size;
    this.cover(x, y, size);
    this.xs[s] = x;
    this.ys[s] = y;
    this.sizes[s] = size;
    this.people[s] = person;
    this.outlines[s] = outline;
    this.lines[s] = line;
    this.coss[s] = cos;
    this.sins[s] = sin;
    return true;
  }

  private grow(): void {
    const doubled = <T extends Float64Array | Uint8Array | Int32Array>(old: T): T => {
      const bigger = new (old.constructor as new (length: number) => T)(old.length * 2);
      bigger.set(old);
      return bigger;
    };
    this.xs = doubled(this.xs);
    this.ys = doubled(this.ys);
    this.sizes = doubled(this.sizes);
    this.people = doubled(this.people);
    this.outlines = doubled(this.outlines);
    this.lines = doubled(this.lines);
    this.coss = doubled(this.coss);
    this.sins = doubled(this.sins);
    this.next = doubled(this.next);
  }

  seeds(): Seeds {
    const n = this.count;
    return {
      count: n,
      x: Float32Array.from(this.xs.subarray(0, n)),
      y: Float32Array.from(this.ys.subarray(0, n)),
      size: Float32Array.from(this.sizes.subarray(0, n)),
      person: this.people.slice(0, n),
      outline: this.outlines.slice(0, n),
      line: this.lines.slice(0, n),
      cos: Float32Array.from(this.coss.subarray(0, n)),
      sin: Float32Array.from(this.sins.subarray(0, n)),
    };
  }
}
