/**
 * Drawing the tiles (`src/paint.ts`): every pixel of a part in its tile's colour under the tile's
 * light, or in the tile's joint colour where the tile ends. The light is computed in double
 * precision, two pixels per f64x2, adding its terms in the order the JavaScript reference adds
 * them, and truncated to bytes as its Uint8Array stores truncate, so both write the same bits.
 */

// A tile's packed look, `TILE_BYTES` per tile, as `src/paint.ts` packs it: singles, the joint
// colour's bytes and the wide flag in one word, and the light's bounds as doubles.
const TILE_SHIFT = 6;
const RED = 0;
const GREEN = 4;
const BLUE = 8;
const SLOPE_X = 12;
const BASE = 16;
const SLOPE_Y = 20;
const BEVEL = 24;
const INVERSE_HALF = 28;
const CENTRE_X = 32;
const CENTRE_Y = 36;
const SHEEN = 40;
const JOINT = 44;
const LOW = 48;
const HIGH = 56;
/** The byte of the joint word that holds the wide flag. */
const WIDE_SHIFT = 24;
/** Pixels drawn together: two pairs of doubles, twelve bytes of RGB. */
const GROUP = 4;
/** The bits of a 16-bit lane mask's group. */
const GROUP_LANES = (1 << GROUP) - 1;
/** Pixels a full 16-byte store reaches into (the last only in part). */
const STORE_REACH = 6;
/** 2⁵²: a whole number below it added to it sits in the double's low bits. */
const MAGIC: f64 = 4503599627370496;

/**
 * Draws the tiles of the label map `labels` (u16 per pixel, `width` per row) into `out` (RGB bytes)
 * inside each of `partCount` parts (i32 left, top, right, bottom, right and bottom exclusive), each
 * at least two pixels inside the map. `looks` holds the packed looks; row `lightRow` of the map is
 * row 0 of the tiles' light. The sheen's spot is at (`sheenX`, `sheenY`) half-sizes from a tile's
 * centre, radius² `sheenR2`.
 */
export function drawTileParts(
  labels: usize,
  width: i32,
  looks: usize,
  parts: usize,
  partCount: i32,
  out: usize,
  lightRow: i32,
  sheenX: f64,
  sheenY: f64,
  sheenR2: f64,
): void {
  for (let p = 0; p < partCount; p++) {
    const part = parts + ((<usize>p) << 4);
    const left = load<i32>(part);
    const top = load<i32>(part, 4);
    const right = load<i32>(part, 8);
    const bottom = load<i32>(part, 12);
    for (let y = top; y < bottom; y++) {
      const row = y * width;
      let x = left;
      while (x < right) {
        const at = labels + ((<usize>(row + x)) << 1);
        const t = <i32>load<u16>(at);
        const tile = looks + ((<usize>t) << TILE_SHIFT);
        const target = out + <usize>(row + x) * 3;
        x += drawRun(at, t, width, tile, target, x, right - x, <f64>(y - lightRow), sheenX, sheenY, sheenR2);
      }
    }
  }
}

/**
 * Draws the run of tile `t` from column `x` (label at `at`, RGB at `target`) to the tile's end or
 * the part's, `room` pixels on at most, and returns its length. A group of pixels reaching past the
 * run is drawn whole: the runs after it draw those pixels again, so a group ending within the part
 * may store sixteen bytes at once.
 */
function drawRun(
  at: usize,
  t: i32,
  width: i32,
  tile: usize,
  target: usize,
  x: i32,
  room: i32,
  lightY: f64,
  sheenX: f64,
  sheenY: f64,
  sheenR2: f64,
): i32 {
  const stride = (<usize>width) << 1;
  const same = i16x8.splat(<i16>t);
  const red = f64x2.splat(<f64>load<f32>(tile, RED));
  const green = f64x2.splat(<f64>load<f32>(tile, GREEN));
  const blue = f64x2.splat(<f64>load<f32>(tile, BLUE));
  const lightX = f64x2.splat(<f64>load<f32>(tile, SLOPE_X));
  const light0 = f64x2.splat(<f64>load<f32>(tile, BASE) + <f64>load<f32>(tile, SLOPE_Y) * lightY);
  const low = f64x2.splat(load<f64>(tile, LOW));
  const high = f64x2.splat(load<f64>(tile, HIGH));
  const bevelScalar = <f64>load<f32>(tile, BEVEL);
  const bevel = f64x2.splat(bevelScalar);
  const halfBevel = f64x2.splat(bevelScalar * 0.5);
  const inverseHalf = <f64>load<f32>(tile, INVERSE_HALF);
  const step = f64x2.splat(inverseHalf);
  // The pixel's place from the tile's centre in half-sizes, for the sheen: across the run it grows
  // by one addition per pixel, as the reference's does, two lanes apart.
  const ry = (lightY + 0.5 - <f64>load<f32>(tile, CENTRE_Y)) * inverseHalf;
  const sy2 = (ry - sheenY) * (ry - sheenY);
  const sheenScalar = sy2 < sheenR2 ? <f64>load<f32>(tile, SHEEN) : 0;
  const shining = sheenScalar !== 0;
  const sheen = f64x2.splat(sheenScalar);
  const spotX = f64x2.splat(sheenX);
  const spotY2 = f64x2.splat(sy2);
  const radius2 = f64x2.splat(sheenR2);
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const rx0 = (<f64>x + 0.5 - <f64>load<f32>(tile, CENTRE_X)) * inverseHalf;
  const rx1 = rx0 + inverseHalf;
  const rx2 = rx1 + inverseHalf;
  let rxA = f64x2.replace_lane(f64x2.splat(rx0), 1, rx1);
  let rxB = f64x2.replace_lane(f64x2.splat(rx2), 1, rx2 + inverseHalf);
  let pxA = f64x2.replace_lane(f64x2.splat(<f64>x), 1, <f64>(x + 1));
  let pxB = f64x2.replace_lane(f64x2.splat(<f64>(x + 2)), 1, <f64>(x + 3));
  const four = f64x2.splat(<f64>GROUP);
  const cap = f64x2.splat(255);
  const magic = f64x2.splat(MAGIC);
  const word = load<u32>(tile, JOINT);
  const wide = word >>> WIDE_SHIFT !== 0;
  const jointWord = i32x4.splat(word);
  const joint = i8x16.shuffle(jointWord, jointWord, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0);
  for (let k = 0; k < room; k += GROUP) {
    const a = at + ((<usize>k) << 1);
    // Per pixel, as 16-bit lanes: a joint where the tile ends to the right or below (for a wide
    // tile also to the left or above); lighter where it ends up-left, darker where down-right.
    const endsRight = i16x8.ne(v128.load(a + 2), same);
    let ends = v128.or(endsRight, i16x8.ne(v128.load(a + stride), same));
    const up = i16x8.ne(v128.load(a - stride - 2), same);
    const down = i16x8.ne(v128.load(a + stride + 2), same);
    let liftA = v128.and(widenLow(up), bevel);
    let liftB = v128.and(widenHigh(up), bevel);
    let dropA = v128.and(widenLow(down), bevel);
    let dropB = v128.and(widenHigh(down), bevel);
    if (wide) {
      ends = v128.or(ends, v128.or(i16x8.ne(v128.load(a - 2), same), i16x8.ne(v128.load(a - stride), same)));
      const upHalf = v128.andnot(i16x8.ne(v128.load(a - 2 * stride - 4), same), up);
      const downHalf = v128.andnot(i16x8.ne(v128.load(a + 2 * stride + 4), same), down);
      liftA = v128.or(liftA, v128.and(widenLow(upHalf), halfBevel));
      liftB = v128.or(liftB, v128.and(widenHigh(upHalf), halfBevel));
      dropA = v128.or(dropA, v128.and(widenLow(downHalf), halfBevel));
      dropB = v128.or(dropB, v128.and(widenHigh(downHalf), halfBevel));
    }
    // Adding or taking away 0 leaves a light as it is, so each term applies lane by lane.
    let rawA = f64x2.sub(f64x2.add(f64x2.add(light0, f64x2.mul(lightX, pxA)), liftA), dropA);
    let rawB = f64x2.sub(f64x2.add(f64x2.add(light0, f64x2.mul(lightX, pxB)), liftB), dropB);
    if (shining) {
      const dA = f64x2.sub(rxA, spotX);
      const dB = f64x2.sub(rxB, spotX);
      const spreadA = f64x2.add(f64x2.mul(dA, dA), spotY2);
      const spreadB = f64x2.add(f64x2.mul(dB, dB), spotY2);
      // Where the spread is the radius² or more, the quotient is 1 or more and the sheen adds
      // nothing: a group wholly outside the spot skips the division.
      if (v128.any_true(v128.or(f64x2.lt(spreadA, radius2), f64x2.lt(spreadB, radius2)))) {
        rawA = f64x2.add(rawA, glint(spreadA, radius2, sheen, one, zero));
        rawB = f64x2.add(rawB, glint(spreadB, radius2, sheen, one, zero));
      }
      rxA = f64x2.add(f64x2.add(rxB, step), step);
      rxB = f64x2.add(f64x2.add(rxA, step), step);
    }
    const lightA = f64x2.pmin(f64x2.pmax(rawA, low), high);
    const lightB = f64x2.pmin(f64x2.pmax(rawB, low), high);
    const r = channel(red, lightA, lightB, cap, magic);
    const g = channel(green, lightA, lightB, cap, magic);
    const b = channel(blue, lightA, lightB, cap, magic);
    const planar = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(r, g), i16x8.narrow_i32x4_u(b, b));
    const rgb = i8x16.shuffle(planar, planar, 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 13, 14, 15);
    const jointBytes = i8x16.shuffle(ends, ends, 0, 0, 0, 2, 2, 2, 4, 4, 4, 6, 6, 6, 6, 6, 6, 6);
    const pixels = v128.bitselect(joint, rgb, jointBytes);
    // The run ends at its first pixel whose right neighbour is another tile, or at the part's edge.
    const stops = i16x8.bitmask(endsRight) & GROUP_LANES;
    const last = stops !== 0 || k + GROUP >= room;
    const n = min(room, stops !== 0 ? k + ctz(stops) + 1 : k + GROUP);
    const o = target + <usize>k * 3;
    if (k + STORE_REACH <= room) v128.store(o, pixels);
    else storePixels(o, pixels, n - k);
    if (last) return n;
    pxA = f64x2.add(pxA, four);
    pxB = f64x2.add(pxB, four);
  }
  return room;
}

/** The sheen's light at a squared distance `spread` from its spot: `sheen·q²` where `q` is positive, else 0. */
function glint(spread: v128, radius2: v128, sheen: v128, one: v128, zero: v128): v128 {
  const q = f64x2.sub(one, f64x2.div(spread, radius2));
  return v128.and(f64x2.gt(q, zero), f64x2.mul(f64x2.mul(sheen, q), q));
}

/**
 * One colour channel of four pixels (lights in two pairs), as the reference's `v < 255 ? v | 0 : 255`:
 * capped, truncated, and added to 2⁵², which leaves the integer in each double's low word.
 */
function channel(value: v128, lightA: v128, lightB: v128, cap: v128, magic: v128): v128 {
  const a = f64x2.add(f64x2.trunc(f64x2.pmin(f64x2.mul(value, lightA), cap)), magic);
  const b = f64x2.add(f64x2.trunc(f64x2.pmin(f64x2.mul(value, lightB), cap)), magic);
  return i32x4.shuffle(a, b, 0, 2, 4, 6);
}

/** The first two 16-bit mask lanes as two 64-bit masks. */
function widenLow(mask: v128): v128 {
  return i64x2.extend_low_i32x4_s(i32x4.extend_low_i16x8_s(mask));
}

/** The third and fourth 16-bit mask lanes as two 64-bit masks. */
function widenHigh(mask: v128): v128 {
  return i64x2.extend_high_i32x4_s(i32x4.extend_low_i16x8_s(mask));
}

/** Stores the first `count` (1 to 4) pixels of twelve RGB bytes, and nothing beyond them. */
function storePixels(o: usize, pixels: v128, count: i32): void {
  if (count === 4) {
    v128.store64_lane(o, pixels, 0);
    v128.store32_lane(o + 8, pixels, 2);
  } else if (count === 3) {
    v128.store64_lane(o, pixels, 0);
    v128.store8_lane(o + 8, pixels, 8);
  } else if (count === 2) {
    v128.store32_lane(o, pixels, 0);
    v128.store16_lane(o + 4, pixels, 2);
  } else {
    v128.store16_lane(o, pixels, 0);
    v128.store8_lane(o + 2, pixels, 2);
  }
}

/**
 * The chamfer distance (in cells) over a grid of `columns`×`rows` singles from the cells holding 0,
 * in place: a forward and a backward pass, as `nearFigure` in `src/paint.ts` runs them. A cell's
 * distance is held as a double and rounded to single whenever it changes, as the reference's is.
 */
export function chamferDistance(distance: usize, columns: i32, rows: i32): void {
  const diagonal = Math.SQRT2;
  const stride = (<usize>columns) << 2;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const i = distance + ((<usize>(y * columns + x)) << 2);
      let d = <f64>load<f32>(i);
      if (x > 0) d = least(d, <f64>load<f32>(i - 4) + 1);
      if (y > 0) {
        d = least(d, <f64>load<f32>(i - stride) + 1);
        if (x > 0) d = least(d, <f64>load<f32>(i - stride - 4) + diagonal);
        if (x < columns - 1) d = least(d, <f64>load<f32>(i - stride + 4) + diagonal);
      }
      store<f32>(i, <f32>d);
    }
  }
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = columns - 1; x >= 0; x--) {
      const i = distance + ((<usize>(y * columns + x)) << 2);
      let d = <f64>load<f32>(i);
      if (x < columns - 1) d = least(d, <f64>load<f32>(i + 4) + 1);
      if (y < rows - 1) {
        d = least(d, <f64>load<f32>(i + stride) + 1);
        if (x < columns - 1) d = least(d, <f64>load<f32>(i + stride + 4) + diagonal);
        if (x > 0) d = least(d, <f64>load<f32>(i + stride - 4) + diagonal);
      }
      store<f32>(i, <f32>d);
    }
  }
}

function least(d: f64, candidate: f64): f64 {
  return candidate < d ? <f64>(<f32>candidate) : d;
}
