import type { Seeds } from './seeds.js';

/**
 * The visitor's stones settled after they are laid, as a mosaicist taps a row into line: each
 * stone turns towards its neighbours' direction and shifts so that its nearest neighbour on each
 * of its four sides lies one size off, in its own frame. Where rows from two guides meet, or hole
 * stones fill the gap between them, the stones as laid face several ways and keep uneven gaps,
 * and the cut gives each a corner of its neighbour's square: polygons rather than cut stones.
 * Settled, neighbouring frames agree and the joints run straight. The background's stones (the
 * outline row and the rings) stay as laid, and the visitor's settle against them.
 */

/** Rounds of turning and shifting. */
const ROUNDS = 14;
/**
 * Stones under this size (artwork pixels: the eyes' and mouth's 7.5-px stones) move FINE_SHARE as
 * far, read in the frame they had before the round's turn: they draw the features, and settled
 * like the rest they cost sample 6 its likeness (descriptor distance 0.504–0.528 against the
 * limit of 0.5; 0.473 now). The likeness of sample 6 is a narrow thing either way.
 */
const FINE_BELOW = 9;
const FINE_SHARE = 0.5;
/** A stone moves this share of its wanted shift per round: all move at once, so less overshoots. */
const DAMPING = 0.8;
/** Stones within this share of their mean size (centre to centre) share their direction. */
const ALIGN_REACH = 1.6;
/** A side's nearest neighbour counts within this share of the mean size (along that side's axis). */
const SPACE_REACH = 2.2;
/** Each stone settles against its nearest few neighbours (in units of their mean size), found once. */
const NEIGHBOURS = 8;
/**
 * The nearest neighbours are looked for within this many mean sizes, and around a stone as if its
 * neighbours were this large (artwork pixels): the body's stones, larger than the outline row's.
 * The ring stones beyond the outline row are larger, but never among a visitor's nearest.
 */
const LIST_REACH = 2.4;
const NEIGHBOUR_SIZE = 22;
/** Buckets of the neighbour search, artwork pixels. */
const BUCKET = 16;

export function settleStones(seeds: Seeds, width: number, height: number): void {
  const neighbours = nearestNeighbours(seeds, width, height);
  const { count, x, y, person, cos, sin } = seeds;
  // Directions as the angle times four: a square's four sides are one direction there.
  const c4 = new Float32Array(count);
  const s4 = new Float32Array(count);
  const moveX = new Float32Array(count);
  const moveY = new Float32Array(count);
  for (let round = 0; round < ROUNDS; round++) {
    for (let s = 0; s < count; s++) {
      const c = cos[s] as number;
      const n = sin[s] as number;
      const c2 = c * c - n * n;
      const s2 = 2 * c * n;
      c4[s] = c2 * c2 - s2 * s2;
      s4[s] = 2 * c2 * s2;
    }
    for (let s = 0; s < count; s++) {
      moveX[s] = 0;
      moveY[s] = 0;
      if (person[s] === 1) settleOne(seeds, s, neighbours, c4, s4, moveX, moveY);
    }
    for (let s = 0; s < count; s++) {
      x[s] = Math.min(width - 1, Math.max(0, (x[s] as number) + (moveX[s] as number)));
      y[s] = Math.min(height - 1, Math.max(0, (y[s] as number) + (moveY[s] as number)));
    }
  }
}

/**
 * One stone's step in a round: its turn, from its neighbours' directions as of the round's start,
 * and its shift into `moveX`, `moveY` (applied once every stone has chosen).
 */
function settleOne(
  seeds: Seeds,
  s: number,
  neighbours: Int32Array,
  c4: Float32Array,
  s4: Float32Array,
  moveX: Float32Array,
  moveY: Float32Array,
): void {
  const { x, y, size, person, cos, sin } = seeds;
  const px = x[s] as number;
  const py = y[s] as number;
  const own = size[s] as number;
  let sumC = c4[s] as number;
  let sumS = s4[s] as number;
  const first = s * NEIGHBOURS;
  for (let k = first; k < first + NEIGHBOURS; k++) {
    const o = neighbours[k] as number;
    if (o < 0) break;
    if (person[o] !== 1) continue;
    const want = (own + (size[o] as number)) / 2;
    const dx = (x[o] as number) - px;
    const dy = (y[o] as number) - py;
    if (dx * dx + dy * dy > ALIGN_REACH * ALIGN_REACH * want * want) continue;
    sumC += c4[o] as number;
    sumS += s4[o] as number;
  }
  // Turned first, so the stone's sides are found in the frame it will be cut in; the finest
  // stones' sides in the frame they had (see FINE_BELOW).
  const fine = own < FINE_BELOW;
  const laidC = cos[s] as number;
  const laidS = sin[s] as number;
  turnTowards(seeds, s, sumC, sumS);
  const c = fine ? laidC : (cos[s] as number);
  const n = fine ? laidS : (sin[s] as number);
  // The nearest neighbour's distance (in the frame) and its gap to one size, per side.
  let plusU = Number.POSITIVE_INFINITY;
  let minusU = plusU;
  let plusV = plusU;
  let minusV = plusU;
  let gapPlusU = 0;
  let gapMinusU = 0;
  let gapPlusV = 0;
  let gapMinusV = 0;
  for (let k = first; k < first + NEIGHBOURS; k++) {
    const o = neighbours[k] as number;
    if (o < 0) break;
    const want = (own + (size[o] as number)) / 2;
    const dx = (x[o] as number) - px;
    const dy = (y[o] as number) - py;
    const u = dx * c + dy * n;
    const v = dy * c - dx * n;
    const au = u < 0 ? -u : u;
    const av = v < 0 ? -v : v;
    // The side the neighbour lies on is the axis it is farther along, as in the cut's
    // Chebyshev distance.
    if (au >= av) {
      if (au > SPACE_REACH * want) continue;
      if (u >= 0) {
        if (au < plusU) {
          plusU = au;
          gapPlusU = au - want;
        }
      } else if (au < minusU) {
        minusU = au;
        gapMinusU = au - want;
      }
    } else {
      if (av > SPACE_REACH * want) continue;
      if (v >= 0) {
        if (av < plusV) {
          plusV = av;
          gapPlusV = av - want;
        }
      } else if (av < minusV) {
        minusV = av;
        gapMinusV = av - want;
      }
    }
  }
  // Towards the side with the wider gap: centred between two neighbours, against a lone one.
  const sidesU = (plusU < Number.POSITIVE_INFINITY ? 1 : 0) + (minusU < Number.POSITIVE_INFINITY ? 1 : 0);
  const sidesV = (plusV < Number.POSITIVE_INFINITY ? 1 : 0) + (minusV < Number.POSITIVE_INFINITY ? 1 : 0);
  const du = sidesU > 0 ? ((gapPlusU - gapMinusU) / sidesU) * DAMPING : 0;
  const dv = sidesV > 0 ? ((gapPlusV - gapMinusV) / sidesV) * DAMPING : 0;
  const share = fine ? FINE_SHARE : 1;
  moveX[s] = (du * c - dv * n) * share;
  moveY[s] = (du * n + dv * c) * share;
}

/**
 * Turns stone s to the direction whose angle times four is (sumC, sumS): of that square's four
 * sides, the one nearest the stone's own direction, so its long side stays along its row.
 */
function turnTowards(seeds: Seeds, s: number, sumC: number, sumS: number): void {
  const length = Math.sqrt(sumC * sumC + sumS * sumS);
  if (length < 1e-6) return;
  // Halved twice, without a trigonometric call: one of the four sides, which one matters not.
  halve(sumC / length, sumS / length);
  halve(half[0] as number, half[1] as number);
  const c = seeds.cos[s] as number;
  const n = seeds.sin[s] as number;
  let bestC = half[0] as number;
  let bestS = half[1] as number;
  let best = bestC * c + bestS * n;
  if (best < 0) {
    bestC = -bestC;
    bestS = -bestS;
    best = -best;
  }
  // The quarter turn (−sin, cos) and its opposite.
  const turned = -bestS * c + bestC * n;
  if (turned > best) {
    const t = bestC;
    bestC = -bestS;
    bestS = t;
  } else if (-turned > best) {
    const t = bestC;
    bestC = bestS;
    bestS = -t;
  }
  seeds.cos[s] = bestC;
  seeds.sin[s] = bestS;
}

/** The half angle of unit vector (c, s), either of the two, into `half`. */
const half = new Float64Array(2);
function halve(c: number, s: number): void {
  if (c >= 0) {
    const h = Math.sqrt((1 + c) / 2);
    half[0] = h;
    half[1] = s / (2 * h);
  } else {
    const h = Math.sqrt((1 - c) / 2);
    half[0] = s / (2 * h);
    half[1] = h;
  }
}

/**
 * Each visitor's stone's NEIGHBOURS nearest stones, by centre distance in units of their mean
 * size (within SPACE_REACH · √2, the frame's corner), found once by buckets: the stones move a
 * fraction of a size while they settle. Row s of `neighbours` (NEIGHBOURS wide) lists them
 * nearest first, −1 where fewer lie within reach.
 */
function nearestNeighbours(seeds: Seeds, width: number, height: number): Int32Array {
  const { count, x, y, size, person } = seeds;
  const columns = Math.ceil(width / BUCKET) + 1;
  const rows = Math.ceil(height / BUCKET) + 1;
  const heads = new Int32Array(columns * rows).fill(-1);
  const next = new Int32Array(count);
  for (let s = 0; s < count; s++) {
    const b = Math.floor((y[s] as number) / BUCKET) * columns + Math.floor((x[s] as number) / BUCKET);
    next[s] = heads[b] as number;
    heads[b] = s;
  }
  const reach = LIST_REACH;
  const neighbours = new Int32Array(count * NEIGHBOURS).fill(-1);
  const nearness = new Float64Array(NEIGHBOURS);
  for (let s = 0; s < count; s++) {
    if (person[s] !== 1) continue;
    const px = x[s] as number;
    const py = y[s] as number;
    const own = size[s] as number;
    const radius = (reach * (own + NEIGHBOUR_SIZE)) / 2;
    const bx0 = Math.max(0, Math.floor((px - radius) / BUCKET));
    const bx1 = Math.min(columns - 1, Math.floor((px + radius) / BUCKET));
    const by0 = Math.max(0, Math.floor((py - radius) / BUCKET));
    const by1 = Math.min(rows - 1, Math.floor((py + radius) / BUCKET));
    const row = s * NEIGHBOURS;
    nearness.fill(reach * reach);
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        for (let o = heads[by * columns + bx] as number; o >= 0; o = next[o] as number) {
          if (o === s) continue;
          const want = (own + (size[o] as number)) / 2;
          const dx = (x[o] as number) - px;
          const dy = (y[o] as number) - py;
          const d = (dx * dx + dy * dy) / (want * want);
          if (d >= (nearness[NEIGHBOURS - 1] as number)) continue;
          // Into the short list, kept sorted.
          let k = NEIGHBOURS - 1;
          for (; k > 0 && (nearness[k - 1] as number) > d; k--) {
            nearness[k] = nearness[k - 1] as number;
            neighbours[row + k] = neighbours[row + k - 1] as number;
          }
          nearness[k] = d;
          neighbours[row + k] = o;
        }
      }
    }
  }
  return neighbours;
}
