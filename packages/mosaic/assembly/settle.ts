import { f32At, f64At, i32At, setF32, setF64 } from './shared/arrays';

/**
 * Settling the visitor's stones (`src/settle.ts`): their neighbour lists, found once by buckets,
 * then rounds of turning and shifting each stone against its neighbours as they lie at that
 * moment. The stones' arrays are the seeds' Float32Arrays; every value is worked in double
 * precision in the JavaScript's order and rounded to single on the store, so both settle the
 * stones to the same bits. The working arrays lie in one block (`settleWorkBytes`).
 */

/**
 * Rounds of turning and shifting. Each stone settles against its neighbours as they lie at that
 * moment, those before it already settled in this round, one after another as a mosaicist taps
 * them: the rows come into line in half the rounds it took when every stone chose from the round's
 * start and all moved at once, as square and as well turned (the figures: the engine README,
 * "Settling"). The stones never come to rest.
 */
const ROUNDS = 6;
/**
 * Stones under this size (artwork pixels: the eyes' and mouth's 7.5-px stones) move FINE_SHARE as
 * far, read in the frame they had before the round's turn: they draw the features, and settled
 * like the rest they cost sample 6 its likeness (its descriptor distance crossed the limit; the
 * artwork measures in BENCHMARKS.md keep it in view). The likeness of sample 6 is a narrow thing
 * either way.
 */
const FINE_BELOW: f64 = 9;
const FINE_SHARE: f64 = 0.5;
/** Stones within this share of their mean size (centre to centre) share their direction. */
const ALIGN_REACH: f64 = 1.6;
/** A side's nearest neighbour counts within this share of the mean size (along that side's axis). */
const SPACE_REACH: f64 = 2.2;
/** Each stone settles against its nearest few neighbours (in units of their mean size), found once;
 * an index of this many stands for none. */
const NEIGHBOURS = 8;
/**
 * The nearest neighbours are looked for within this many mean sizes, and around a stone as if its
 * neighbours were this large (artwork pixels): the body's stones, larger than the outline row's.
 * The ring stones beyond the outline row are larger, but never among a visitor's nearest.
 */
const LIST_REACH: f64 = 2.4;
const NEIGHBOUR_SIZE: f64 = 22;
/** Buckets of the neighbour search, artwork pixels. */
const BUCKET: f64 = 16;

/** Where each working array lies in the block, set by `layOut`. */
let visitors: usize = 0;
let start: usize = 0;
let fill: usize = 0;
let bucketOf: usize = 0;
let laid: usize = 0;
let laidX: usize = 0;
let laidY: usize = 0;
let laidSize: usize = 0;
let first: usize = 0;
let stone: usize = 0;
let want: usize = 0;
let alignLimit: usize = 0;
let spaceLimit: usize = 0;
let c4: usize = 0;
let s4: usize = 0;
let nearness: usize = 0;
let row: usize = 0;
let offsetX: usize = 0;
let offsetY: usize = 0;

/** The stones' own arrays. */
let xs: usize = 0;
let ys: usize = 0;
let sizes: usize = 0;
let coss: usize = 0;
let sins: usize = 0;
let people: usize = 0;

function columnsOf(width: i32): i32 {
  return <i32>Math.ceil(<f64>width / BUCKET) + 1;
}

function rowsOf(height: i32): i32 {
  return <i32>Math.ceil(<f64>height / BUCKET) + 1;
}

/** Lays the working arrays out from `work` on; returns where they end. */
function layOut(work: usize, count: i32, cells: i32): usize {
  const n = <usize>count;
  const lists = n * NEIGHBOURS;
  let at = work;
  want = at;
  at += lists << 3;
  alignLimit = at;
  at += lists << 3;
  spaceLimit = at;
  at += lists << 3;
  nearness = at;
  at += NEIGHBOURS << 3;
  offsetX = at;
  at += NEIGHBOURS << 3;
  offsetY = at;
  at += NEIGHBOURS << 3;
  row = at;
  at += NEIGHBOURS << 2;
  visitors = at;
  at += n << 2;
  start = at;
  at += (<usize>(cells + 1)) << 2;
  fill = at;
  at += (<usize>cells) << 2;
  bucketOf = at;
  at += n << 2;
  laid = at;
  at += n << 2;
  laidX = at;
  at += n << 2;
  laidY = at;
  at += n << 2;
  laidSize = at;
  at += n << 2;
  first = at;
  at += (n + 1) << 2;
  stone = at;
  at += lists << 2;
  c4 = at;
  at += n << 2;
  s4 = at;
  at += n << 2;
  return at;
}

/** Bytes of working memory `settleStonesLoop` needs for `count` stones on a `width`×`height` artwork. */
export function settleWorkBytes(count: i32, width: i32, height: i32): i32 {
  return <i32>layOut(0, count, columnsOf(width) * rowsOf(height));
}

function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + ((<usize>i) << 2), v);
}

/**
 * `a` where `first`, else `b`, by the bits: the engine compiles a selection of doubles into a
 * branch, which these data would mislead.
 */
function pick(a: f64, b: f64, first: bool): f64 {
  const x = reinterpret<i64>(a);
  const y = reinterpret<i64>(b);
  return reinterpret<f64>(y ^ ((x ^ y) & -(<i64>first)));
}

/** Stone s's direction as the angle times four, into c4 and s4. */
function quadruple(s: i32): void {
  const c = f32At(coss, s);
  const n = f32At(sins, s);
  const c2 = c * c - n * n;
  const s2 = 2 * c * n;
  setF32(c4, s, c2 * c2 - s2 * s2);
  setF32(s4, s, 2 * c2 * s2);
}

/**
 * The stones sorted by bucket (row by row), each bucket's latest laid first; bucket b's run from
 * start[b] to start[b + 1], with their centres and sizes alongside.
 */
function bucket(count: i32, columns: i32, cells: i32): void {
  memory.fill(start, 0, (<usize>(cells + 1)) << 2);
  for (let s = 0; s < count; s++) {
    const b = <i32>Math.floor(f32At(ys, s) / BUCKET) * columns + <i32>Math.floor(f32At(xs, s) / BUCKET);
    // A stone off the artwork would fall outside the buckets: it joins the nearest.
    const kept = min(cells - 1, max(0, b));
    setI32(bucketOf, s, kept);
    setI32(start, kept + 1, i32At(start, kept + 1) + 1);
  }
  for (let b = 0; b < cells; b++) setI32(start, b + 1, i32At(start, b + 1) + i32At(start, b));
  memory.copy(fill, start, (<usize>cells) << 2);
  for (let s = count - 1; s >= 0; s--) {
    const b = i32At(bucketOf, s);
    const j = i32At(fill, b);
    setI32(fill, b, j + 1);
    setI32(laid, j, s);
    store<f32>(laidX + ((<usize>j) << 2), load<f32>(xs + ((<usize>s) << 2)));
    store<f32>(laidY + ((<usize>j) << 2), load<f32>(ys + ((<usize>s) << 2)));
    store<f32>(laidSize + ((<usize>j) << 2), load<f32>(sizes + ((<usize>s) << 2)));
  }
}

/**
 * Each visitor's NEIGHBOURS nearest stones, by centre distance in units of their mean size
 * (within LIST_REACH), nearest first, ties in the order the buckets are visited in; and what the
 * rounds ask of each pair.
 */
function neighbourLists(visitorCount: i32, count: i32, width: i32, height: i32): void {
  const columns = columnsOf(width);
  const rows = rowsOf(height);
  bucket(count, columns, rows * columns);
  const reach = LIST_REACH;
  let end = 0;
  setI32(first, 0, 0);
  for (let i = 0; i < visitorCount; i++) {
    const s = i32At(visitors, i);
    const px = f32At(xs, s);
    const py = f32At(ys, s);
    const own = f32At(sizes, s);
    const radius = (reach * (own + NEIGHBOUR_SIZE)) / 2;
    const bx0 = <i32>Math.max(0, Math.floor((px - radius) / BUCKET));
    const bx1 = <i32>Math.min(<f64>(columns - 1), Math.floor((px + radius) / BUCKET));
    const by0 = <i32>Math.max(0, Math.floor((py - radius) / BUCKET));
    const by1 = <i32>Math.min(<f64>(rows - 1), Math.floor((py + radius) / BUCKET));
    for (let k = 0; k < NEIGHBOURS; k++) {
      setF64(nearness, k, reach * reach);
      setI32(row, k, -1);
    }
    let worst = reach * reach;
    for (let by = by0; by <= by1; by++) {
      const to = i32At(start, by * columns + bx1 + 1);
      for (let j = i32At(start, by * columns + bx0); j < to; j++) {
        const o = i32At(laid, j);
        if (o === s) continue;
        const w = (own + f32At(laidSize, j)) / 2;
        const dx = f32At(laidX, j) - px;
        const dy = f32At(laidY, j) - py;
        const d = (dx * dx + dy * dy) / (w * w);
        if (d >= worst) continue;
        let k = NEIGHBOURS - 1;
        for (; k > 0 && f64At(nearness, k - 1) > d; k--) {
          setF64(nearness, k, f64At(nearness, k - 1));
          setI32(row, k, i32At(row, k - 1));
        }
        setF64(nearness, k, d);
        setI32(row, k, o);
        worst = f64At(nearness, NEIGHBOURS - 1);
      }
    }
    for (let k = 0; k < NEIGHBOURS && i32At(row, k) >= 0; k++) setI32(stone, end++, i32At(row, k));
    setI32(first, i + 1, end);
  }
  for (let i = 0; i < visitorCount; i++) {
    const own = f32At(sizes, i32At(visitors, i));
    const to = i32At(first, i + 1);
    for (let k = i32At(first, i); k < to; k++) {
      const o = i32At(stone, k);
      const w = (own + f32At(sizes, o)) / 2;
      setF64(want, k, w);
      setF64(alignLimit, k, load<u8>(people + <usize>o) === 1 ? ALIGN_REACH * ALIGN_REACH * w * w : -1);
      setF64(spaceLimit, k, SPACE_REACH * w);
    }
  }
}

/**
 * Turns stone s to the direction whose angle times four is (sumC, sumS): of that square's four
 * sides, the one nearest the stone's own direction.
 */
function turnTowards(s: i32, sumC: f64, sumS: f64): void {
  const length = Math.sqrt(sumC * sumC + sumS * sumS);
  if (length < 1e-6) return;
  // Halved twice, without a trigonometric call: one of the four sides, which one matters not.
  // Each halving takes either of the two half angles of its unit vector; chosen by selection,
  // as are the flips below: the directions would mislead branches.
  let halfC = sumC / length;
  let halfS = sumS / length;
  for (let twice = 0; twice < 2; twice++) {
    const ahead = halfC >= 0;
    const h = Math.sqrt(pick(1 + halfC, 1 - halfC, ahead) / 2);
    const other = halfS / (2 * h);
    halfC = pick(h, other, ahead);
    halfS = pick(other, h, ahead);
  }
  const c = f32At(coss, s);
  const n = f32At(sins, s);
  const backwards = halfC * c + halfS * n < 0;
  const bestC = pick(-halfC, halfC, backwards);
  const bestS = pick(-halfS, halfS, backwards);
  const best = bestC * c + bestS * n;
  // The quarter turn (−sin, cos) and its opposite.
  const turned = -bestS * c + bestC * n;
  const left = turned > best;
  const right = !left && -turned > best;
  setF32(coss, s, pick(-bestS, pick(bestS, bestC, right), left));
  setF32(sins, s, pick(bestC, pick(-bestC, bestS, right), left));
}

/** Visitor i's step in a round: its turn, from its neighbours' directions, and then its shift. */
function settleOne(i: i32, width: i32, height: i32): void {
  const s = i32At(visitors, i);
  const px = f32At(xs, s);
  const py = f32At(ys, s);
  // The two sums (cos, sin of four times the angle) side by side.
  let sums = f64x2.replace_lane(f64x2.splat(f32At(c4, s)), 1, f32At(s4, s));
  const nothing = f64x2.splat(-0.0);
  const from = i32At(first, i);
  const to = i32At(first, i + 1);
  for (let k = from; k < to; k++) {
    const o = i32At(stone, k);
    const dx = f32At(xs, o) - px;
    const dy = f32At(ys, o) - py;
    setF64(offsetX, k - from, dx);
    setF64(offsetY, k - from, dy);
    // A neighbour out of reach adds −0, which leaves every sum as it was (−0 included).
    const near = i64x2.splat(-(<i64>!(dx * dx + dy * dy > f64At(alignLimit, k))));
    const at = (<usize>o) << 2;
    const own = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(c4 + at)), 1, <f64>load<f32>(s4 + at));
    sums = f64x2.add(sums, v128.bitselect(own, nothing, near));
  }
  const sumC = f64x2.extract_lane(sums, 0);
  const sumS = f64x2.extract_lane(sums, 1);
  const fine = f32At(sizes, s) < FINE_BELOW;
  const laidC = f32At(coss, s);
  const laidS = f32At(sins, s);
  turnTowards(s, sumC, sumS);
  const c = fine ? laidC : f32At(coss, s);
  const n = fine ? laidS : f32At(sins, s);
  // Per side (+u, −u, +v, −v): the first neighbour at its least distance along that side's axis
  // within reach; a neighbour's side is the axis it is farther along, as in the cut's Chebyshev
  // distance. The four sides' nearest so far lie in two pairs of lanes, (+u, −u) and (+v, −v),
  // each neighbour offered to its own side's lane: selection rather than branches, which the
  // data would mislead.
  let nearU = f64x2.splat(Infinity);
  let nearV = f64x2.splat(Infinity);
  let ofU = i64x2.splat(NEIGHBOURS);
  let ofV = i64x2.splat(NEIGHBOURS);
  const lanesU = i64x2(0, 1);
  const lanesV = i64x2(2, 3);
  for (let k = from; k < to; k++) {
    const j = k - from;
    const dx = f64At(offsetX, j);
    const dy = f64At(offsetY, j);
    const u = dx * c + dy * n;
    const v = dy * c - dx * n;
    const acrossV = Math.abs(v);
    const alongU = Math.abs(u);
    const onU = alongU >= acrossV;
    const along = pick(alongU, acrossV, onU);
    // Out of reach, on no side.
    const side = select<i32>(select<i32>(<i32>(u < 0), 2 | <i32>(v < 0), onU), 4, along <= f64At(spaceLimit, k));
    const at = i64x2.splat(<i64>side);
    const offered = f64x2.splat(along);
    const betterU = v128.and(i64x2.eq(at, lanesU), f64x2.lt(offered, nearU));
    const betterV = v128.and(i64x2.eq(at, lanesV), f64x2.lt(offered, nearV));
    const index = i64x2.splat(<i64>j);
    nearU = v128.bitselect(offered, nearU, betterU);
    nearV = v128.bitselect(offered, nearV, betterV);
    ofU = v128.bitselect(index, ofU, betterU);
    ofV = v128.bitselect(index, ofV, betterV);
  }
  const plusU = <i32>i64x2.extract_lane(ofU, 0);
  const minusU = <i32>i64x2.extract_lane(ofU, 1);
  const plusV = <i32>i64x2.extract_lane(ofV, 0);
  const minusV = <i32>i64x2.extract_lane(ofV, 1);
  const gapPlusU = plusU < NEIGHBOURS ? f64x2.extract_lane(nearU, 0) - f64At(want, from + plusU) : 0;
  const gapMinusU = minusU < NEIGHBOURS ? f64x2.extract_lane(nearU, 1) - f64At(want, from + minusU) : 0;
  const gapPlusV = plusV < NEIGHBOURS ? f64x2.extract_lane(nearV, 0) - f64At(want, from + plusV) : 0;
  const gapMinusV = minusV < NEIGHBOURS ? f64x2.extract_lane(nearV, 1) - f64At(want, from + minusV) : 0;
  // Towards the side with the wider gap: centred between two neighbours, against a lone one.
  const sidesU = (plusU < NEIGHBOURS ? 1 : 0) + (minusU < NEIGHBOURS ? 1 : 0);
  const sidesV = (plusV < NEIGHBOURS ? 1 : 0) + (minusV < NEIGHBOURS ? 1 : 0);
  const du = sidesU > 0 ? (gapPlusU - gapMinusU) / <f64>sidesU : 0;
  const dv = sidesV > 0 ? (gapPlusV - gapMinusV) / <f64>sidesV : 0;
  const share = fine ? FINE_SHARE : 1;
  setF32(xs, s, Math.min(<f64>(width - 1), Math.max(0, px + (du * c - dv * n) * share)));
  setF32(ys, s, Math.min(<f64>(height - 1), Math.max(0, py + (du * n + dv * c) * share)));
  // Its neighbours still to settle this round see it as it now lies.
  quadruple(s);
}

/**
 * `settleStones`: the seeds' arrays (x, y, size, cos, sin as Float32Arrays, person as bytes) of
 * `count` stones, settled in place; `work` is `settleWorkBytes` of working memory.
 */
export function settleStonesLoop(
  x: usize,
  y: usize,
  size: usize,
  cos: usize,
  sin: usize,
  person: usize,
  count: i32,
  width: i32,
  height: i32,
  work: usize,
): void {
  xs = x;
  ys = y;
  sizes = size;
  coss = cos;
  sins = sin;
  people = person;
  layOut(work, count, columnsOf(width) * rowsOf(height));
  let visitorCount = 0;
  for (let s = 0; s < count; s++) if (load<u8>(people + <usize>s) === 1) setI32(visitors, visitorCount++, s);
  neighbourLists(visitorCount, count, width, height);
  // The background stands still, kept within the artwork as the visitor's are.
  for (let s = 0; s < count; s++) {
    if (load<u8>(people + <usize>s) === 1) continue;
    setF32(xs, s, Math.min(<f64>(width - 1), Math.max(0, f32At(xs, s))));
    setF32(ys, s, Math.min(<f64>(height - 1), Math.max(0, f32At(ys, s))));
  }
  memory.fill(c4, 0, (<usize>count) << 2);
  memory.fill(s4, 0, (<usize>count) << 2);
  for (let i = 0; i < visitorCount; i++) quadruple(i32At(visitors, i));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < visitorCount; i++) settleOne(i, width, height);
  }
}
