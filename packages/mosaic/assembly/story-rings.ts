import { FREE } from './shared/labels';

/**
 * The story's background stones (`src/story-rings.ts`): each ring seed's oriented square claimed
 * pixel by pixel, the chips merged into their neighbours and any pixel no square reached given to
 * the nearest seed. The arithmetic is the JavaScript's, in double precision and in its order, and
 * the distances round to single where the JavaScript stores them, so both label alike.
 *
 * Seeds come packed as four doubles each (x, y, cos, sin; see `SEED_BYTES`); seed `s` is tile
 * `first + s`. Labels are 16-bit, the story's canvas `width` wide, its rows `offset` below the 4:5's.
 */

/** Bytes of one packed seed: x, y, cos, sin as doubles. */
const SEED_BYTES: usize = 32;
/** A direction component this small counts as zero (its slab runs along the axis). */
const ALIGNED = 1e-9;

/**
 * Paints each seed's square over the free pixels of the field (rows `from`–`to`, columns
 * `left`–`right`), keeping the nearer seed where squares overlap; `mixed` flags the field's rows
 * where other labels may lie, `distance` holds the field's nearest distance so far (single
 * precision), `area` and `within` each seed's pixels and whether its square lies wholly in mixed
 * rows; `spans` is working space, two integers per row of the field. Returns how many free pixels
 * were claimed.
 */
export function storyAssignSquares(
  labels: usize,
  width: i32,
  offset: i32,
  from: i32,
  to: i32,
  left: i32,
  right: i32,
  mixed: usize,
  seeds: usize,
  count: i32,
  first: i32,
  reach: f64,
  distance: usize,
  area: usize,
  within: usize,
  spans: usize,
): i32 {
  const span = right - left;
  const rows = to - from;
  const top = <f64>(from - offset);
  memory.fill(area, 0, (<usize>count) << 2);
  for (let s = 0; s < count; s++) {
    const seed = seeds + <usize>s * SEED_BYTES;
    const sy = load<f64>(seed, 8);
    const extent = reach * (Math.abs(load<f64>(seed, 16)) + Math.abs(load<f64>(seed, 24)));
    const y1 = lastRow(sy, extent, top, rows);
    store<u8>(within + <usize>s, allMixed(mixed, rows, firstRow(sy, extent, top), y1 + 1));
  }
  // Band by band, each seed in order over the band's rows of its square: every pixel still meets
  // the seeds in their order, as when each seed paints its whole square in turn, while the band's
  // labels and distances stay in cache.
  let claimed = 0;
  for (let band = 0; band < rows; band += BAND) {
    const bandEnd = min(rows, band + BAND);
    for (let y = band; y < bandEnd; y++) {
      if (load<u8>(mixed + <usize>y) !== 0) {
        freeSpan(labels + ((<usize>((from + y) * width)) << 1), left, right, spans + ((<usize>y) << 3));
        continue;
      }
      const row = distance + ((<usize>(y * span)) << 2);
      for (let x = 0; x < span; x++) store<f32>(row + ((<usize>x) << 2), Infinity);
    }
    for (let s = 0; s < count; s++) {
      const seed = seeds + <usize>s * SEED_BYTES;
      const sy = load<f64>(seed, 8);
      const extent = reach * (Math.abs(load<f64>(seed, 16)) + Math.abs(load<f64>(seed, 24)));
      const y0 = max(band, firstRow(sy, extent, top));
      const y1 = min(bandEnd - 1, lastRow(sy, extent, top, rows));
      if (y0 > y1) continue;
      const field = distance - ((<usize>left) << 2);
      claimed += claimRows(
        labels,
        width,
        from,
        left,
        right,
        mixed,
        spans,
        seed,
        first,
        s,
        count,
        reach,
        top,
        y0,
        y1,
        field,
        span,
        area,
      );
    }
  }
  return claimed;
}

/** The first field row of a square `extent` high each side of `sy` (4:5 rows; the field's first at `top`). */
function firstRow(sy: f64, extent: f64, top: f64): i32 {
  return <i32>Math.max(0, Math.ceil(sy - extent - top - 0.5));
}

/** The last field row of a square `extent` high each side of `sy`, the field `rows` high. */
function lastRow(sy: f64, extent: f64, top: f64, rows: i32): i32 {
  return <i32>Math.min(<f64>(rows - 1), Math.floor(sy + extent - top - 0.5));
}

/**
 * The first and last free pixel of a row's columns `left`–`right` (`right` and `left` − 1 when it
 * has none), stored at `span`: before the band's seeds are laid, only there may they take pixels.
 * Read in one sweep, the row is in cache when the seeds come.
 */
function freeSpan(row: usize, left: i32, right: i32, span: usize): void {
  const free = i16x8.splat(<i16>FREE);
  let first = right;
  let last = left - 1;
  let x = left;
  for (; x + 8 <= right; x += 8) {
    const found = i16x8.bitmask(i16x8.eq(v128.load(row + ((<usize>x) << 1)), free));
    if (found === 0) continue;
    if (first === right) first = x + ctz(found);
    last = x + 31 - clz(found);
  }
  for (; x < right; x++) {
    if (<i32>load<u16>(row + ((<usize>x) << 1)) !== FREE) continue;
    if (first === right) first = x;
    last = x;
  }
  store<i32>(span, first);
  store<i32>(span, last, 4);
}

/** Rows of the field taken together, so that their labels and distances stay in cache. */
const BAND = 32;

/**
 * Seed `s`'s square over rows `y0`–`y1` of the field, where it is nearer than the distance so far
 * (`distance` addressed by the field's row and the canvas's column). Returns how many pixels it
 * took that no square had claimed before; `area` counts each seed's pixels.
 */
function claimRows(
  labels: usize,
  width: i32,
  from: i32,
  left: i32,
  right: i32,
  mixed: usize,
  spans: usize,
  seed: usize,
  first: i32,
  s: i32,
  count: i32,
  reach: f64,
  top: f64,
  y0: i32,
  y1: i32,
  distance: usize,
  span: i32,
  area: usize,
): i32 {
  const sx = load<f64>(seed);
  const sy = load<f64>(seed, 8);
  const cos = load<f64>(seed, 16);
  const sin = load<f64>(seed, 24);
  const extent = reach * (Math.abs(cos) + Math.abs(sin));
  const tile = first + s;
  const limit = first + count;
  let claimed = 0;
  let own = 0;
  for (let y = y0; y <= y1; y++) {
    const dy = top + <f64>y + 0.5 - sy;
    // |dx·cos + dy·sin| ≤ reach and |dy·cos − dx·sin| ≤ reach, solved for dx.
    let lo = -extent;
    let hi = extent;
    if (Math.abs(cos) > ALIGNED) {
      const a = (-reach - dy * sin) / cos;
      const b = (reach - dy * sin) / cos;
      lo = Math.max(lo, Math.min(a, b));
      hi = Math.min(hi, Math.max(a, b));
    }
    if (Math.abs(sin) > ALIGNED) {
      const a = (dy * cos - reach) / sin;
      const b = (dy * cos + reach) / sin;
      lo = Math.max(lo, Math.min(a, b));
      hi = Math.min(hi, Math.max(a, b));
    }
    const x0 = <i32>Math.max(<f64>left, Math.ceil(sx + lo - 0.5));
    const x1 = <i32>Math.min(<f64>(right - 1), Math.floor(sx + hi - 0.5));
    const near = distance + ((<usize>(y * span)) << 2);
    const out = labels + ((<usize>((from + y) * width)) << 1);
    const alongY = dy * sin;
    const acrossY = dy * cos;
    if (load<u8>(mixed + <usize>y) === 0) {
      claimed += claimFreeRow(near, out, x0, x1, sx, cos, sin, alongY, acrossY, tile);
      continue;
    }
    const free = spans + ((<usize>y) << 3);
    const end = min(x1, load<i32>(free, 4));
    for (let x = max(x0, load<i32>(free)); x <= end; x++) {
      const l = <i32>load<u16>(out + ((<usize>x) << 1));
      if (l !== FREE && (l < first || l >= limit)) continue;
      const dx = <f64>x + 0.5 - sx;
      const u = Math.abs(dx * cos + alongY);
      const v = Math.abs(acrossY - dx * sin);
      const d = u > v ? u : v;
      const at = near + ((<usize>x) << 2);
      if (l === FREE) {
        claimed++;
      } else if (d < <f64>load<f32>(at)) {
        const other = area + ((<usize>(l - first)) << 2);
        store<i32>(other, load<i32>(other) - 1);
      } else continue;
      store<f32>(at, <f32>d);
      store<u16>(out + ((<usize>x) << 1), <u16>tile);
      own++;
    }
  }
  const mine = area + ((<usize>s) << 2);
  store<i32>(mine, load<i32>(mine) + own);
  return claimed;
}

/**
 * The seed's square over one free row's pixels `x0`–`x1` (inclusive), two at a time: where it is
 * nearer than the distance so far, it takes the pixel. Returns how many pixels it took that no
 * square had claimed before.
 */
function claimFreeRow(
  near: usize,
  out: usize,
  x0: i32,
  x1: i32,
  sx: f64,
  cos: f64,
  sin: f64,
  alongY: f64,
  acrossY: f64,
  tile: i32,
): i32 {
  const half = f64x2.splat(0.5);
  const two = f64x2.splat(2);
  const infinity = f64x2.splat(Infinity);
  const seedX = f64x2.splat(sx);
  const cosines = f64x2.splat(cos);
  const sines = f64x2.splat(sin);
  const along = f64x2.splat(alongY);
  const across = f64x2.splat(acrossY);
  let xs = f64x2.replace_lane(f64x2.splat(<f64>x0), 1, <f64>(x0 + 1));
  let claimed = 0;
  let x = x0;
  for (; x < x1; x += 2) {
    const dx = f64x2.sub(f64x2.add(xs, half), seedX);
    xs = f64x2.add(xs, two);
    const u = f64x2.abs(f64x2.add(f64x2.mul(dx, cosines), along));
    const v = f64x2.abs(f64x2.sub(across, f64x2.mul(dx, sines)));
    // u > v ? u : v, lane by lane.
    const d = f64x2.pmax(v, u);
    const at = near + ((<usize>x) << 2);
    const stored = v128.load64_zero(at);
    const before = f64x2.promote_low_f32x4(stored);
    const closer = f64x2.lt(d, before);
    if (!v128.any_true(closer)) continue;
    claimed += popcnt(i64x2.bitmask(v128.and(closer, f64x2.eq(before, infinity))));
    const singles = v128.shuffle<i32>(closer, closer, 0, 2, 0, 2);
    v128.store64_lane(at, v128.bitselect(f32x4.demote_f64x2_zero(d), stored, singles), 0);
    // Stored one by one: reading the labels to blend them would wait on memory for no purpose.
    const taken = i64x2.bitmask(closer);
    const pixel = out + ((<usize>x) << 1);
    if (taken & 1) store<u16>(pixel, <u16>tile);
    if (taken & 2) store<u16>(pixel, <u16>tile, 2);
  }
  if (x === x1) {
    const dx = <f64>x + 0.5 - sx;
    const u = Math.abs(dx * cos + alongY);
    const v = Math.abs(acrossY - dx * sin);
    const d = u > v ? u : v;
    const at = near + ((<usize>x) << 2);
    const before = <f64>load<f32>(at);
    if (d < before) {
      if (before === Infinity) claimed++;
      store<f32>(at, <f32>d);
      store<u16>(out + ((<usize>x) << 1), <u16>tile);
    }
  }
  return claimed;
}

/**
 * 1 when every flag of `mixed` (`length` of them) from `begin` to `end` is 1, with `end` read as
 * a typed array's `subarray` reads it (a negative end counts from the length).
 */
function allMixed(mixed: usize, length: i32, begin: i32, end: i32): u8 {
  const b = begin < length ? begin : length;
  let e = end < 0 ? end + length : end;
  if (e < 0) e = 0;
  if (e > length) e = length;
  for (let y = b; y < e; y++) if (load<u8>(mixed + <usize>y) !== 1) return 0;
  return 1;
}

/**
 * Each chip (a seed's stone smaller than `chip` pixels, its square wholly in mixed rows) goes to the
 * new stone it borders most, the first of those met on a tie. `votes` (a counter per seed) and
 * `order` (the seeds voted for, in the order first voted) are working space.
 */
export function storyMergeChips(
  labels: usize,
  width: i32,
  offset: i32,
  from: i32,
  to: i32,
  left: i32,
  right: i32,
  seeds: usize,
  count: i32,
  first: i32,
  reach: f64,
  chip: f64,
  area: usize,
  within: usize,
  votes: usize,
  order: usize,
): void {
  memory.fill(votes, 0, (<usize>count) << 2);
  const stride = (<usize>width) << 1;
  for (let s = 0; s < count; s++) {
    const size = load<i32>(area + ((<usize>s) << 2));
    if (load<u8>(within + <usize>s) === 0 || size === 0 || <f64>size >= chip) continue;
    const seed = seeds + <usize>s * SEED_BYTES;
    const sx = load<f64>(seed);
    const sy = load<f64>(seed, 8);
    const cos = load<f64>(seed, 16);
    const sin = load<f64>(seed, 24);
    const tile = first + s;
    const extent = <i32>Math.ceil(reach * (Math.abs(cos) + Math.abs(sin))) + 1;
    const x0 = max(left + 1, <i32>Math.floor(sx) - extent);
    const x1 = min(right - 1, <i32>Math.ceil(sx) + extent);
    const y0 = max(from + 1, <i32>Math.floor(sy) + offset - extent);
    const y1 = min(to - 1, <i32>Math.ceil(sy) + offset + extent);
    let voted = 0;
    for (let y = y0; y < y1; y++) {
      const row = labels + ((<usize>(y * width)) << 1);
      for (let x = x0; x < x1; x++) {
        const at = row + ((<usize>x) << 1);
        if (<i32>load<u16>(at) !== tile) continue;
        voted = vote(load<u16>(at - 2), tile, first, count, chip, area, within, votes, order, voted);
        voted = vote(load<u16>(at + 2), tile, first, count, chip, area, within, votes, order, voted);
        voted = vote(load<u16>(at - stride), tile, first, count, chip, area, within, votes, order, voted);
        voted = vote(load<u16>(at + stride), tile, first, count, chip, area, within, votes, order, voted);
      }
    }
    let into = -1;
    let most = 0;
    for (let k = 0; k < voted; k++) {
      const other = load<i32>(order + ((<usize>k) << 2));
      const at = votes + ((<usize>other) << 2);
      const n = load<i32>(at);
      store<i32>(at, 0);
      if (n > most) {
        most = n;
        into = first + other;
      }
    }
    if (into < 0) continue;
    for (let y = y0; y < y1; y++) {
      const row = labels + ((<usize>(y * width)) << 1);
      for (let x = x0; x < x1; x++) {
        const at = row + ((<usize>x) << 1);
        if (<i32>load<u16>(at) === tile) store<u16>(at, <u16>into);
      }
    }
    const grown = area + ((<usize>(into - first)) << 2);
    store<i32>(grown, load<i32>(grown) + size);
    store<i32>(area + ((<usize>s) << 2), 0);
  }
}

/** Counts a vote of the chip `tile` for its neighbour `label` if that is a new stone and no chip; returns the voted count. */
function vote(
  label: u16,
  tile: i32,
  first: i32,
  count: i32,
  chip: f64,
  area: usize,
  within: usize,
  votes: usize,
  order: usize,
  voted: i32,
): i32 {
  const l = <i32>label;
  if (l === tile || l < first || l >= first + count) return voted;
  const s = l - first;
  if (load<u8>(within + <usize>s) === 1 && <f64>load<i32>(area + ((<usize>s) << 2)) < chip) return voted;
  const at = votes + ((<usize>s) << 2);
  const n = load<i32>(at);
  store<i32>(at, n + 1);
  if (n !== 0) return voted;
  store<i32>(order + ((<usize>voted) << 2), s);
  return voted + 1;
}

/**
 * Gives each free pixel of the field the nearest seed in the buckets (squares of `spacing`, a grid
 * `columns` wide) within four of its own, searched ring by ring until one holds a seed, as
 * `fillUnreached` does with its map of buckets. `starts` (`buckets` + 1 counters) and `members`
 * (one per seed) are working space for the buckets' seeds, each bucket's in seed order.
 */
export function storyFillUnreached(
  labels: usize,
  width: i32,
  offset: i32,
  from: i32,
  to: i32,
  left: i32,
  right: i32,
  seeds: usize,
  count: i32,
  first: i32,
  spacing: f64,
  columns: i32,
  buckets: i32,
  starts: usize,
  members: usize,
): void {
  // A bucket's key as the JavaScript computes it, shifted so the search around any pixel of the
  // canvas stays at or above zero.
  const shift = SEARCH * columns + SEARCH;
  memory.fill(starts, 0, (<usize>(buckets + 1)) << 2);
  for (let s = 0; s < count; s++) {
    const seed = seeds + <usize>s * SEED_BYTES;
    const k = bucketOf(load<f64>(seed), load<f64>(seed, 8) + <f64>offset, spacing, columns) + shift;
    if (k < 0 || k >= buckets) continue;
    const at = starts + ((<usize>(k + 1)) << 2);
    store<i32>(at, load<i32>(at) + 1);
  }
  for (let k = 0; k < buckets; k++) {
    const at = starts + ((<usize>(k + 1)) << 2);
    store<i32>(at, load<i32>(at) + load<i32>(at - 4));
  }
  // Filled by each bucket's start, which ends up at the next bucket's: shifted back below.
  for (let s = 0; s < count; s++) {
    const seed = seeds + <usize>s * SEED_BYTES;
    const k = bucketOf(load<f64>(seed), load<f64>(seed, 8) + <f64>offset, spacing, columns) + shift;
    if (k < 0 || k >= buckets) continue;
    const at = starts + ((<usize>k) << 2);
    const n = load<i32>(at);
    store<i32>(members + ((<usize>n) << 2), s);
    store<i32>(at, n + 1);
  }
  for (let k = buckets; k > 0; k--) store<i32>(starts + ((<usize>k) << 2), load<i32>(starts + ((<usize>(k - 1)) << 2)));
  store<i32>(starts, 0);
  for (let y = from; y < to; y++) {
    const row = labels + ((<usize>(y * width)) << 1);
    for (let x = left; x < right; x++) {
      const at = row + ((<usize>x) << 1);
      if (<i32>load<u16>(at) !== FREE) continue;
      const px = <f64>x + 0.5;
      const py = <f64>(y - offset) + 0.5;
      const home = bucketOf(px, <f64>y + 0.5, spacing, columns) + shift;
      let best = -1;
      let bestDistance = Infinity;
      for (let ring = 1; ring <= SEARCH && best < 0; ring++) {
        for (let j = -ring; j <= ring; j++) {
          for (let k = -ring; k <= ring; k++) {
            const b = home + j * columns + k;
            if (b < 0 || b >= buckets) continue;
            const end = load<i32>(starts + ((<usize>(b + 1)) << 2));
            for (let m = load<i32>(starts + ((<usize>b) << 2)); m < end; m++) {
              const s = load<i32>(members + ((<usize>m) << 2));
              const seed = seeds + <usize>s * SEED_BYTES;
              const sx = load<f64>(seed);
              const sy = load<f64>(seed, 8);
              const cos = load<f64>(seed, 16);
              const sin = load<f64>(seed, 24);
              const u = Math.abs((sx - px) * cos + (sy - py) * sin);
              const v = Math.abs((sy - py) * cos - (sx - px) * sin);
              const d = u > v ? u : v;
              if (d < bestDistance) {
                bestDistance = d;
                best = first + s;
              }
            }
          }
        }
      }
      if (best >= first) store<u16>(at, <u16>best);
    }
  }
}

/** Rings of buckets searched around a pixel, at most. */
const SEARCH = 4;

function bucketOf(x: f64, y: f64, spacing: f64, columns: i32): i32 {
  return (<i32>Math.floor(y / spacing) + 2) * columns + <i32>Math.floor(x / spacing) + 2;
}
