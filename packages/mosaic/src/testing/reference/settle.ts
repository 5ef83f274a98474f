import type { Seeds } from '../../seeds.js';

/**
 * The visitor's stones settled after they are laid, as a mosaicist taps a row into line: each
 * stone turns towards its neighbours' direction and shifts so that its nearest neighbour on each
 * of its four sides lies one size off, in its own frame. Where rows from two guides meet, or hole
 * stones fill the gap between them, the stones as laid face several ways and keep uneven gaps,
 * and the cut gives each a corner of its neighbour's square: polygons rather than cut stones.
 * Settled, neighbouring frames agree and the joints run straight. The background's stones (the
 * outline row and the rings) stay as laid, and the visitor's settle against them.
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
const FINE_BELOW = 9;
const FINE_SHARE = 0.5;
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

/** The JavaScript the engine's WebAssembly `settleStonesLoop` replaced, kept as the reference its test compares with. */
export function settleStones(seeds: Seeds, width: number, height: number): void {
  const { count, x, y, person } = seeds;
  const visitors = visitorsOf(seeds);
  const neighbours = nearestNeighbours(seeds, visitors, width, height);
  // The background stands still, kept within the artwork as the visitor's are.
  for (let s = 0; s < count; s++) {
    if (person[s] === 1) continue;
    x[s] = Math.min(width - 1, Math.max(0, x[s] as number));
    y[s] = Math.min(height - 1, Math.max(0, y[s] as number));
  }
  // Directions as the angle times four: a square's four sides are one direction there.
  const c4 = new Float32Array(count);
  const s4 = new Float32Array(count);
  for (let i = 0; i < visitors.length; i++) quadruple(seeds, visitors[i] as number, c4, s4);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < visitors.length; i++) settleOne(seeds, visitors, i, neighbours, c4, s4, width, height);
  }
}

/** The visitor's stones, in order. */
function visitorsOf(seeds: Seeds): Int32Array {
  const { count, person } = seeds;
  let n = 0;
  for (let s = 0; s < count; s++) if (person[s] === 1) n++;
  const visitors = new Int32Array(n);
  n = 0;
  for (let s = 0; s < count; s++) if (person[s] === 1) visitors[n++] = s;
  return visitors;
}

/** Stone s's direction as the angle times four, into c4 and s4. */
function quadruple({ cos, sin }: Seeds, s: number, c4: Float32Array, s4: Float32Array): void {
  const c = cos[s] as number;
  const n = sin[s] as number;
  const c2 = c * c - n * n;
  const s2 = 2 * c * n;
  c4[s] = c2 * c2 - s2 * s2;
  s4[s] = 2 * c2 * s2;
}

/** The settling stone's neighbours' distances along their side's axis; past the last, none. */
const distance = new Float64Array(NEIGHBOURS + 1).fill(Number.POSITIVE_INFINITY);
/** Per side of the stone settling (+u, −u, +v, −v): its nearest neighbour (NEIGHBOURS for none), and the gap to one size there. */
const nearestOf = new Int32Array(4);
const gapOf = new Float64Array(4);
/** A neighbour's offset across and along the frame, to pick the farther by index. */
const axes = new Float64Array(2);

/** The gaps of the settling stone's nearest neighbours (0 on a side with none), its list from `from`. */
function sidesSettled(from: number, want: Float64Array): Float64Array {
  for (let side = 0; side < 4; side++) {
    const j = nearestOf[side] as number;
    gapOf[side] = j < NEIGHBOURS ? (distance[j] as number) - (want[from + j] as number) : 0;
  }
  return gapOf;
}

/** The settling stone's neighbours' offsets, read once for both its passes. */
const offsetX = new Float64Array(NEIGHBOURS);
const offsetY = new Float64Array(NEIGHBOURS);

/** Visitor i's step in a round: its turn, from its neighbours' directions, and then its shift. */
function settleOne(
  seeds: Seeds,
  visitors: Int32Array,
  i: number,
  neighbours: Neighbours,
  c4: Float32Array,
  s4: Float32Array,
  width: number,
  height: number,
): void {
  const { x, y, size, cos, sin } = seeds;
  const { first, stone, want, alignLimit, spaceLimit } = neighbours;
  const s = visitors[i] as number;
  const px = x[s] as number;
  const py = y[s] as number;
  let sumC = c4[s] as number;
  let sumS = s4[s] as number;
  const from = first[i] as number;
  const to = first[i + 1] as number;
  for (let k = from; k < to; k++) {
    const o = stone[k] as number;
    const dx = (x[o] as number) - px;
    const dy = (y[o] as number) - py;
    offsetX[k - from] = dx;
    offsetY[k - from] = dy;
    if (dx * dx + dy * dy > (alignLimit[k] as number)) continue;
    sumC += c4[o] as number;
    sumS += s4[o] as number;
  }
  // Turned first, so the stone's sides are found in the frame it will be cut in; the finest
  // stones' sides in the frame they had (see FINE_BELOW).
  const fine = (size[s] as number) < FINE_BELOW;
  const laidC = cos[s] as number;
  const laidS = sin[s] as number;
  turnTowards(seeds, s, sumC, sumS);
  const c = fine ? laidC : (cos[s] as number);
  const n = fine ? laidS : (sin[s] as number);
  // Per side (+u, −u, +v, −v): the nearest neighbour, the first at its least distance in the frame
  // within reach. The side a neighbour lies on is the axis it is farther along, as in the cut's
  // Chebyshev distance. Chosen by integer arithmetic and indexing rather than branches or
  // Math.min, which the data would mislead: this loop is most of the settling's time.
  nearestOf[0] = NEIGHBOURS;
  nearestOf[1] = NEIGHBOURS;
  nearestOf[2] = NEIGHBOURS;
  nearestOf[3] = NEIGHBOURS;
  for (let k = from; k < to; k++) {
    const j = k - from;
    const dx = offsetX[j] as number;
    const dy = offsetY[j] as number;
    const u = dx * c + dy * n;
    const v = dy * c - dx * n;
    axes[0] = Math.abs(v);
    axes[1] = Math.abs(u);
    const alongU = +((axes[1] as number) >= (axes[0] as number));
    const side = ((1 - alongU) << 1) | (alongU & +(u < 0)) | ((1 - alongU) & +(v < 0));
    const along = axes[alongU] as number;
    distance[j] = along;
    const held = nearestOf[side] as number;
    const better = +(along <= (spaceLimit[k] as number)) & +(along < (distance[held] as number));
    nearestOf[side] = held ^ ((held ^ j) & -better);
  }
  const sides = sidesSettled(from, want);
  const plusU = nearestOf[0] as number;
  const minusU = nearestOf[1] as number;
  const plusV = nearestOf[2] as number;
  const minusV = nearestOf[3] as number;
  const gapPlusU = sides[0] as number;
  const gapMinusU = sides[1] as number;
  const gapPlusV = sides[2] as number;
  const gapMinusV = sides[3] as number;
  // Towards the side with the wider gap: centred between two neighbours, against a lone one.
  const sidesU = (plusU < NEIGHBOURS ? 1 : 0) + (minusU < NEIGHBOURS ? 1 : 0);
  const sidesV = (plusV < NEIGHBOURS ? 1 : 0) + (minusV < NEIGHBOURS ? 1 : 0);
  const du = sidesU > 0 ? (gapPlusU - gapMinusU) / sidesU : 0;
  const dv = sidesV > 0 ? (gapPlusV - gapMinusV) / sidesV : 0;
  const share = fine ? FINE_SHARE : 1;
  x[s] = Math.min(width - 1, Math.max(0, px + (du * c - dv * n) * share));
  y[s] = Math.min(height - 1, Math.max(0, py + (du * n + dv * c) * share));
  // Its neighbours still to settle this round see it as it now lies.
  quadruple(seeds, s, c4, s4);
}

/**
 * Turns stone s to the direction whose angle times four is (sumC, sumS): of that square's four
 * sides, the one nearest the stone's own direction, so its long side stays along its row.
 */
function turnTowards(seeds: Seeds, s: number, sumC: number, sumS: number): void {
  const length = Math.sqrt(sumC * sumC + sumS * sumS);
  if (length < 1e-6) return;
  // Halved twice, without a trigonometric call: one of the four sides, which one matters not.
  // Each halving takes either of the two half angles of its unit vector.
  let halfC = sumC / length;
  let halfS = sumS / length;
  for (let twice = 0; twice < 2; twice++) {
    if (halfC >= 0) {
      const h = Math.sqrt((1 + halfC) / 2);
      halfC = h;
      halfS = halfS / (2 * h);
    } else {
      const h = Math.sqrt((1 - halfC) / 2);
      halfC = halfS / (2 * h);
      halfS = h;
    }
  }
  const c = seeds.cos[s] as number;
  const n = seeds.sin[s] as number;
  let bestC = halfC;
  let bestS = halfS;
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

/**
 * The visitor's neighbour lists, flat: visitor i's run from first[i] to first[i + 1], nearest
 * first, with what the rounds ask of each pair worked out once (sizes do not change).
 */
interface Neighbours {
  first: Int32Array;
  stone: Int32Array;
  /** The pair's mean size: the distance wanted between their centres. */
  want: Float64Array;
  /** Squared distance within which the pair share their direction; −1 when the neighbour is the background's. */
  alignLimit: Float64Array;
  /** Distance along a side's axis within which the neighbour counts as that side's. */
  spaceLimit: Float64Array;
}

/**
 * Each visitor's stone's NEIGHBOURS nearest stones, by centre distance in units of their mean
 * size (within LIST_REACH), found once by buckets: the stones move a fraction of a size while
 * they settle, well within the reach the lists are found in.
 * Ties keep the order the buckets are visited in.
 */
function nearestNeighbours(seeds: Seeds, visitors: Int32Array, width: number, height: number): Neighbours {
  const { x, y, size, person } = seeds;
  const columns = Math.ceil(width / BUCKET) + 1;
  const rows = Math.ceil(height / BUCKET) + 1;
  const buckets = bucketed(seeds, columns, rows);
  const { start, stone: laid, bx: lx, by: ly, size: lsize } = buckets;
  const reach = LIST_REACH;
  const first = new Int32Array(visitors.length + 1);
  const stone = new Int32Array(visitors.length * NEIGHBOURS);
  const nearness = new Float64Array(NEIGHBOURS);
  const row = new Int32Array(NEIGHBOURS);
  let end = 0;
  for (let i = 0; i < visitors.length; i++) {
    const s = visitors[i] as number;
    const px = x[s] as number;
    const py = y[s] as number;
    const own = size[s] as number;
    const radius = (reach * (own + NEIGHBOUR_SIZE)) / 2;
    const bx0 = Math.max(0, Math.floor((px - radius) / BUCKET));
    const bx1 = Math.min(columns - 1, Math.floor((px + radius) / BUCKET));
    const by0 = Math.max(0, Math.floor((py - radius) / BUCKET));
    const by1 = Math.min(rows - 1, Math.floor((py + radius) / BUCKET));
    nearness.fill(reach * reach);
    row.fill(-1);
    let worst = reach * reach;
    for (let by = by0; by <= by1; by++) {
      // A row of buckets lies in one run of the bucketed stones.
      const to = start[by * columns + bx1 + 1] as number;
      for (let j = start[by * columns + bx0] as number; j < to; j++) {
        const o = laid[j] as number;
        if (o === s) continue;
        const want = (own + (lsize[j] as number)) / 2;
        const dx = (lx[j] as number) - px;
        const dy = (ly[j] as number) - py;
        const d = (dx * dx + dy * dy) / (want * want);
        if (d >= worst) continue;
        // Into the short list, kept sorted.
        let k = NEIGHBOURS - 1;
        for (; k > 0 && (nearness[k - 1] as number) > d; k--) {
          nearness[k] = nearness[k - 1] as number;
          row[k] = row[k - 1] as number;
        }
        nearness[k] = d;
        row[k] = o;
        worst = nearness[NEIGHBOURS - 1] as number;
      }
    }
    for (let k = 0; k < NEIGHBOURS && (row[k] as number) >= 0; k++) stone[end++] = row[k] as number;
    first[i + 1] = end;
  }
  const want = new Float64Array(end);
  const alignLimit = new Float64Array(end);
  const spaceLimit = new Float64Array(end);
  for (let i = 0; i < visitors.length; i++) {
    const own = size[visitors[i] as number] as number;
    for (let k = first[i] as number; k < (first[i + 1] as number); k++) {
      const o = stone[k] as number;
      const w = (own + (size[o] as number)) / 2;
      want[k] = w;
      alignLimit[k] = person[o] === 1 ? ALIGN_REACH * ALIGN_REACH * w * w : -1;
      spaceLimit[k] = SPACE_REACH * w;
    }
  }
  return { first, stone: stone.subarray(0, end), want, alignLimit, spaceLimit };
}

/**
 * The stones sorted by bucket (row by row), each bucket's latest laid first; bucket b's run from
 * start[b] to start[b + 1], with their centres and sizes alongside.
 */
function bucketed(seeds: Seeds, columns: number, rows: number) {
  const { count, x, y, size } = seeds;
  const start = new Int32Array(columns * rows + 1);
  const bucketOf = new Int32Array(count);
  for (let s = 0; s < count; s++) {
    const b = Math.floor((y[s] as number) / BUCKET) * columns + Math.floor((x[s] as number) / BUCKET);
    bucketOf[s] = b;
    start[b + 1] = (start[b + 1] as number) + 1;
  }
  for (let b = 0; b < columns * rows; b++) start[b + 1] = (start[b + 1] as number) + (start[b] as number);
  const fill = start.slice(0, columns * rows);
  const stone = new Int32Array(count);
  const bx = new Float32Array(count);
  const by = new Float32Array(count);
  const sizes = new Float32Array(count);
  for (let s = count - 1; s >= 0; s--) {
    const b = bucketOf[s] as number;
    const j = fill[b] as number;
    fill[b] = j + 1;
    stone[j] = s;
    bx[j] = x[s] as number;
    by[j] = y[s] as number;
    sizes[j] = size[s] as number;
  }
  return { start, stone, bx, by, size: sizes };
}
