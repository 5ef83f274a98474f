import { guideHypot } from './guides';
import { f32At } from './shared/arrays';
import { CELL, centre } from './shared/guide-grid';
import { roundHalfUp } from './shared/round';

/**
 * Laying the tesserae (`src/seeds.ts`): the places on the rows along the guide lines, their
 * order, the laid stones' index (`Layer` there) that keeps a new stone clear of those laid before
 * it, and the holes between rows. Every value is worked in double precision in the JavaScript's
 * order, so both lay the same stones. The index lies in one block (`seedLayerBytes`), set up by
 * `seedLayerBegin`; it holds one stone per guide cell at most, since each stone covers the cell
 * its centre lies in (see `cover`).
 */

/** Buckets of the seed index, artwork pixels. */
const BUCKET: f64 = 16;
/** Size of the background row that outlines the figure (artwork pixels). */
const OUTLINE_SIZE: f64 = 15;
/** Two tesserae keep their centres at least this share of their mean size apart (across the row). */
const SPACING: f64 = 0.88;
/**
 * Along the new tessera's row the share is a little larger for stones of the face and body: the
 * rows lie one size apart, and a row packed at 0.88 cut many of its stones narrower along the row
 * than across it, slips that read as turned 90° against the contour (the orientation measure rose
 * on the test photos; the engine README, "Rows"). The fine stones of the eyes, brows, nose and lips
 * keep 0.88 either way: spaced wider they drew less of the features (the descriptor distance rose
 * past its limit).
 */
const ALONG: f64 = 0.95;
/** Stones from this size (artwork pixels) keep ALONG along their row. */
const ALONG_FROM: f64 = 12;
/** Holes between rows get a tessera of their own only where one fits whole. */
const HOLE: f64 = 0.8;
/** A cell proposes a place on its row only when it lies this close to the row's middle line. */
const NEAR_ROW: f64 = 2.9;
/** See `cover`: HOLE / 2, so a covered place is too near for a row or a hole alike. */
const COVERED: f64 = 0.4;
/** Candidates are ordered in 1-px bins of their distance from the guide line. */
const BINS = 1026;
/** Numbers per candidate: priority, x, y, size, row direction. */
const CANDIDATE = 6;

/**
 * The sizes tesserae are cut in. The size map varies smoothly; rows of one size read as laid by
 * hand, rows whose stones shrink and grow from one to the next do not.
 * Each family (7.5, 9.5, 11, 13, 17, 22 and 34 px) takes the sizes up to the geometric mean with
 * the next one.
 */
function cut(size: f64): f64 {
  if (!(size > Math.sqrt(9.5 * 7.5))) return 7.5;
  if (!(size > Math.sqrt(11 * 9.5))) return 9.5;
  if (!(size > Math.sqrt(13 * 11))) return 11;
  if (!(size > Math.sqrt(17 * 13))) return 13;
  if (!(size > Math.sqrt(22 * 17))) return 17;
  if (!(size > Math.sqrt(34 * 22))) return 22;
  return 34;
}

// The index: its arrays' addresses and its sizes.
let count = 0;
let capacity = 0;
let reach: f64 = 0;
let columns = 0;
let rows = 0;
let gridWidth = 0;
let gridHeight = 0;
let xs: usize = 0;
let ys: usize = 0;
let sizes: usize = 0;
let coss: usize = 0;
let sins: usize = 0;
let next: usize = 0;
let heads: usize = 0;
let people: usize = 0;
let outlines: usize = 0;
let lines: usize = 0;
let covered: usize = 0;

/** Lays the index out from `work` on for a `width`×`height` artwork; returns where it ends. */
function layOut(work: usize, width: i32, height: i32): usize {
  columns = <i32>Math.ceil(<f64>width / BUCKET) + 1;
  rows = <i32>Math.ceil(<f64>height / BUCKET) + 1;
  gridWidth = <i32>Math.ceil(<f64>width / CELL);
  gridHeight = <i32>Math.ceil(<f64>height / CELL);
  capacity = gridWidth * gridHeight;
  const n = <usize>capacity;
  let at = work;
  xs = at;
  at += n << 3;
  ys = at;
  at += n << 3;
  sizes = at;
  at += n << 3;
  coss = at;
  at += n << 3;
  sins = at;
  at += n << 3;
  next = at;
  at += n << 2;
  heads = at;
  at += (<usize>(columns * rows)) << 2;
  people = at;
  at += n;
  outlines = at;
  at += n;
  lines = at;
  at += n;
  covered = at;
  at += n;
  return at;
}

/** Bytes of working memory the index needs for a `width`×`height` artwork. */
export function seedLayerBytes(width: i32, height: i32): i32 {
  return <i32>layOut(0, width, height);
}

/** An empty index in `work` (`seedLayerBytes` of it). */
export function seedLayerBegin(work: usize, width: i32, height: i32): void {
  layOut(work, width, height);
  count = 0;
  reach = 0;
  memory.fill(heads, 0xff, (<usize>(columns * rows)) << 2);
  memory.fill(covered, 0, <usize>capacity);
}

/** Stones laid so far. */
export function seedLayerCount(): i32 {
  return count;
}

function isCovered(x: f64, y: f64): bool {
  const gx = Math.floor(x / CELL);
  const gy = Math.floor(y / CELL);
  if (gx < 0 || gy < 0 || gx >= <f64>gridWidth || gy >= <f64>gridHeight) return false;
  return load<u8>(covered + <usize>(<i32>gy * gridWidth + <i32>gx)) === 1;
}

/**
 * Marks the guide cells whose centre lies within COVERED of a tessera's size from its centre:
 * any place in them is too near that tessera, which settles most places without a search.
 */
function cover(x: f64, y: f64, size: f64): void {
  const r = COVERED * size;
  const gx0 = <i32>Math.max(0, Math.ceil((x - r) / CELL - 0.5));
  const gx1 = <i32>Math.min(<f64>(gridWidth - 1), Math.floor((x + r) / CELL - 0.5));
  const gy0 = <i32>Math.max(0, Math.ceil((y - r) / CELL - 0.5));
  const gy1 = <i32>Math.min(<f64>(gridHeight - 1), Math.floor((y + r) / CELL - 0.5));
  for (let gy = gy0; gy <= gy1; gy++) {
    const dy = centre(gy) - y;
    for (let gx = gx0; gx <= gx1; gx++) {
      const dx = centre(gx) - x;
      if (dx * dx + dy * dy <= r * r) store<u8>(covered + <usize>(gy * gridWidth + gx), 1);
    }
  }
}

/**
 * Lays a tessera at (x, y) unless it comes nearer a laid one than `spacing` (across its row) or
 * `along` (along it) of their mean size, in its own frame; 1 when laid.
 */
export function seedTryAdd(
  x: f64,
  y: f64,
  size: f64,
  person: i32,
  outline: i32,
  cos: f64,
  sin: f64,
  spacing: f64,
  along: f64,
  line: i32,
): i32 {
  if (isCovered(x, y)) return 0;
  const radius = (Math.max(spacing, along) * (size + reach)) / 2;
  const bx0 = <i32>Math.max(0, Math.floor((x - radius) / BUCKET));
  const bx1 = <i32>Math.min(<f64>(columns - 1), Math.floor((x + radius) / BUCKET));
  const by0 = <i32>Math.max(0, Math.floor((y - radius) / BUCKET));
  const by1 = <i32>Math.min(<f64>(rows - 1), Math.floor((y + radius) / BUCKET));
  // The ellipse lies inside the circle of radius limit · the larger share (scaled by the row
  // vector's length): a neighbour outside it cannot overlap.
  const share = Math.max(spacing, along);
  const circle = (share * share * 1.01) / (cos * cos + sin * sin);
  for (let by = by0; by <= by1; by++) {
    for (let bx = bx0; bx <= bx1; bx++) {
      let s = load<i32>(heads + ((<usize>(by * columns + bx)) << 2));
      for (; s >= 0; s = load<i32>(next + ((<usize>s) << 2))) {
        const at = (<usize>s) << 3;
        const other = load<f64>(sizes + at);
        const dx = load<f64>(xs + at) - x;
        const dy = load<f64>(ys + at) - y;
        const both = size + other;
        if (dx * dx + dy * dy >= both * both * 0.25 * circle) continue;
        const u = (dx * cos + dy * sin) / along;
        const v = (dy * cos - dx * sin) / spacing;
        const limit = (size + other) / 2;
        if (u * u + v * v < limit * limit) return 0;
      }
    }
  }
  // Never reached (see above), but a stone past the room would write over the index.
  if (count >= capacity) return 0;
  const s = count++;
  const b = <i32>Math.floor(y / BUCKET) * columns + <i32>Math.floor(x / BUCKET);
  const head = heads + ((<usize>b) << 2);
  store<i32>(next + ((<usize>s) << 2), load<i32>(head));
  store<i32>(head, s);
  if (size > reach) reach = size;
  cover(x, y, size);
  const at = (<usize>s) << 3;
  store<f64>(xs + at, x);
  store<f64>(ys + at, y);
  store<f64>(sizes + at, size);
  store<u8>(people + <usize>s, <u8>person);
  store<u8>(outlines + <usize>s, <u8>outline);
  store<u8>(lines + <usize>s, <u8>line);
  store<f64>(coss + at, cos);
  store<f64>(sins + at, sin);
  return 1;
}

// The window stones are laid in (`within`), set by `seedWindow`.
let left: f64 = 0;
let top: f64 = 0;
let right: f64 = 0;
let bottom: f64 = 0;

/** The part of the artwork that shows: a stone is laid only where it reaches into it. */
export function seedWindow(l: f64, t: f64, r: f64, b: f64): void {
  left = l;
  top = t;
  right = r;
  bottom = b;
}

function reaches(x: f64, y: f64, size: f64): bool {
  return x > left - size && x < right + size && y > top - size && y < bottom + size;
}

/**
 * The places on the rows, at most one per guide cell, with their distance from the guide line
 * as priority (−1 for the background's outline row), into `candidates`; returns how many.
 */
export function seedRowPlaces(
  nearX: usize,
  nearY: usize,
  distance: usize,
  tangentX: usize,
  tangentY: usize,
  personShare: usize,
  sizeMap: usize,
  gw: i32,
  gh: i32,
  cell: f64,
  width: i32,
  height: i32,
  candidates: usize,
): i32 {
  let found = 0;
  for (let gy = 0, i = 0; gy < gh; gy++) {
    const py = centre(gy);
    for (let gx = 0; gx < gw; gx++, i++) {
      const d = f32At(distance, i);
      if (!(d > 0.5) || !Number.isFinite(d)) continue;
      const person = f32At(personShare, i) >= 0.5;
      const size = person ? cut(f32At(sizeMap, i)) : OUTLINE_SIZE;
      const k = Math.max(0, roundHalfUp(d / size - 0.5));
      if (!person && k > 0) continue;
      const px = centre(gx);
      const qx = f32At(nearX, i);
      const qy = f32At(nearY, i);
      const nx = (px - qx) / d;
      const ny = (py - qy) / d;
      const r = (k + 0.5) * size;
      const x = qx + nx * r;
      const y = qy + ny * r;
      if (Math.abs(x - px) > NEAR_ROW || Math.abs(y - py) > NEAR_ROW) continue;
      if (x < 0 || y < 0 || x >= <f64>width || y >= <f64>height || !reaches(x, y, size)) continue;
      // The place must lie in the same guide's territory and on the same side of the silhouette.
      const tx = <i32>Math.min(<f64>(gw - 1), Math.floor(x / cell));
      const ty = <i32>Math.min(<f64>(gh - 1), Math.floor(y / cell));
      const t = ty * gw + tx;
      if (Math.abs(f32At(distance, t) - r) > 0.3 * size) continue;
      if (f32At(personShare, t) >= 0.5 !== person) continue;
      let cos = -ny;
      let sin = nx;
      const ownX = f32At(tangentX, i);
      const ownY = f32At(tangentY, i);
      if (k === 0 && (ownX !== 0 || ownY !== 0)) {
        // Of the two directions along the guide, the one that keeps the tile's frame turning the same way.
        const flip: f64 = ownX * cos + ownY * sin < 0 ? -1 : 1;
        cos = ownX * flip;
        sin = ownY * flip;
      }
      const o = candidates + ((<usize>(found++ * CANDIDATE)) << 2);
      store<f32>(o, <f32>(person ? r : -1));
      store<f32>(o + 4, <f32>x);
      store<f32>(o + 8, <f32>y);
      store<f32>(o + 12, <f32>size);
      store<f32>(o + 16, <f32>cos);
      store<f32>(o + 20, <f32>sin);
    }
  }
  return found;
}

function binOf(candidates: usize, c: i32): i32 {
  return <i32>Math.min(<f64>(BINS - 1), roundHalfUp(f32At(candidates, c * CANDIDATE) + 1));
}

/**
 * The row places laid in order: the background's outline row first, then by distance from the
 * guide line (1-px bins, stable). `order` holds `count` indices and `starts` BINS + 1.
 */
export function seedLayRows(candidates: usize, found: i32, order: usize, starts: usize): void {
  memory.fill(starts, 0, (<usize>(BINS + 1)) << 2);
  for (let c = 0; c < found; c++) {
    const at = starts + ((<usize>(binOf(candidates, c) + 1)) << 2);
    store<i32>(at, load<i32>(at) + 1);
  }
  for (let b = 0; b < BINS; b++) {
    const at = starts + ((<usize>(b + 1)) << 2);
    store<i32>(at, load<i32>(at) + load<i32>(at - 4));
  }
  for (let c = 0; c < found; c++) {
    const at = starts + ((<usize>binOf(candidates, c)) << 2);
    const place = load<i32>(at);
    store<i32>(order + ((<usize>place) << 2), c);
    store<i32>(at, place + 1);
  }
  for (let k = 0; k < found; k++) {
    const c = load<i32>(order + ((<usize>k) << 2));
    const o = c * CANDIDATE;
    const priority = f32At(candidates, o);
    const size = f32At(candidates, o + 3);
    const person = priority >= 0;
    // A row's priority is its distance from the guide line, half a size for the row along it.
    const line = !person || priority < size;
    seedTryAdd(
      f32At(candidates, o + 1),
      f32At(candidates, o + 2),
      size,
      person ? 1 : 0,
      person ? 0 : 1,
      f32At(candidates, o + 4),
      f32At(candidates, o + 5),
      SPACING,
      size >= ALONG_FROM ? ALONG : SPACING,
      line ? 1 : 0,
    );
  }
}

/** A tessera in every hole between rows large enough for one, on the guide cells. */
export function seedHoles(
  nearX: usize,
  nearY: usize,
  distance: usize,
  tangentX: usize,
  tangentY: usize,
  personShare: usize,
  sizeMap: usize,
  gw: i32,
  gh: i32,
  ring: f64,
  centreX: f64,
  centreY: f64,
): void {
  for (let gy = 0; gy < gh; gy++) {
    const y = centre(gy);
    for (let gx = 0; gx < gw; gx++) {
      const i = gy * gw + gx;
      if (load<u8>(covered + <usize>i) === 1) continue;
      const person = f32At(personShare, i) >= 0.5;
      const size = person ? cut(f32At(sizeMap, i)) : ring;
      // Stones from 13 px up are looked for on every other cell: a hole one fits in spans several.
      if (size >= 13 && ((gx | gy) & 1) === 1) continue;
      const x = centre(gx);
      if (!reaches(x, y, size)) continue;
      let cos: f64;
      let sin: f64;
      if (person) {
        const d = f32At(distance, i);
        if (d > 1 && Number.isFinite(d)) {
          cos = -(y - f32At(nearY, i)) / d;
          sin = (x - f32At(nearX, i)) / d;
        } else {
          const along = f32At(tangentX, i);
          cos = along !== 0 && !Number.isNaN(along) ? along : 1;
          sin = f32At(tangentY, i);
        }
      } else {
        let r = guideHypot(x - centreX, y - centreY);
        if (r === 0 || Number.isNaN(r)) r = 1;
        cos = -(y - centreY) / r;
        sin = (x - centreX) / r;
      }
      seedTryAdd(x, y, size, person ? 1 : 0, 0, cos, sin, HOLE, HOLE, 0);
    }
  }
}

/** The laid stones into the seeds' arrays (single precision, as `Seeds` holds them). */
export function seedLayerFinish(
  x: usize,
  y: usize,
  size: usize,
  person: usize,
  outline: usize,
  line: usize,
  cos: usize,
  sin: usize,
): void {
  for (let s = 0; s < count; s++) {
    const at = (<usize>s) << 3;
    const to = (<usize>s) << 2;
    store<f32>(x + to, <f32>load<f64>(xs + at));
    store<f32>(y + to, <f32>load<f64>(ys + at));
    store<f32>(size + to, <f32>load<f64>(sizes + at));
    store<f32>(cos + to, <f32>load<f64>(coss + at));
    store<f32>(sin + to, <f32>load<f64>(sins + at));
  }
  memory.copy(person, people, <usize>count);
  memory.copy(outline, outlines, <usize>count);
  memory.copy(line, lines, <usize>count);
}

// Read by `src/seeds.ts` (and its reference), so each is defined once.
export {
  ALONG as seedAlong,
  BINS as seedBins,
  CANDIDATE as seedCandidate,
  OUTLINE_SIZE as seedOutlineSize,
  SPACING as seedSpacing,
};
