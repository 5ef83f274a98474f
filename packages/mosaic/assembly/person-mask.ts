import { f32At, f64At, setF32, setF64 } from './shared/arrays';
import { blurRows } from './shared/box-blur';
import { hi, joined, lo } from './shared/lanes';

/**
 * The person mask's loops (`src/person-mask.ts`). Every value is computed in double precision in
 * the order the JavaScript reference computes it and rounded to single only where that stores
 * into a Float32Array, so both write the same bits.
 */

/** Model probabilities above this sample the visitor's colours, below BACKGROUND_SURE the room's. */
const PERSON_SURE: f64 = 0.9;
const BACKGROUND_SURE: f64 = 0.1;
/** As in `src/person-mask.ts`: the colour evidence's weight against the model's, and its clamp. */
/** The model's log-odds are clamped here: a model certain of a wall is still only this certain. */
const MODEL_LOGIT: f64 = 3.5;
const COLOUR_WEIGHT: f64 = 1.5;
const COLOUR_LOGIT: f64 = 4;
/**
 * A first reading's colours this much likelier in the room than on the visitor are left out of the
 * visitor's colours the second time: stretches of wall the model took for the person.
 */
const WALL_LOGIT: f64 = -1.5;
/** Share of the model's log-odds that still counts on the line a first reading drew against it. */
const RIM_MODEL: f64 = 0.25;
/** RGB quantised to 4 bits a channel. */
const LEVELS: i32 = 16;
const BINS: i32 = LEVELS * LEVELS * LEVELS;
/** The JavaScript's log-odds → probability table: its steps and the range it spans (±). */
const SIGMOID_STEPS: f64 = 1024;
const LOGIT_RANGE: f64 = MODEL_LOGIT + COLOUR_WEIGHT * COLOUR_LOGIT;
const PERSON_SIDE: u8 = 1;
const ROOM_SIDE: u8 = 2;
/** Settledness from which a pixel teaches its side's local colours. */
const SETTLED_ENOUGH: f64 = 0.99;
/** Squared RGB distance (of 2×2 sums) that keeps two near-equal distances from deciding much. */
const LOCAL_SOFTNESS: f64 = 4800;
const LOCAL_MAPS: i32 = 8;

/**
 * Separable box blur of `v` (floats, `width`×`height`), edges clamped, in place: the rows into
 * `rows` (a grid's worth of floats), then the columns back into `v`, one running sum per column in
 * `sums` (`width` floats, single precision as the reference keeps them).
 */
export function personBoxBlur(v: usize, width: i32, height: i32, radius: i32, rows: usize, sums: usize): void {
  const norm: f64 = 1 / <f64>(2 * radius + 1);
  blurRows(v, width, height, radius, norm, rows);
  memory.fill(sums, 0, (<usize>width) << 2);
  for (let k = -radius; k <= radius; k++) {
    const row = rows + ((<usize>(min(height - 1, max(0, k)) * width)) << 2);
    for (let x = 0; x < width; x++) setF32(sums, x, f32At(sums, x) + f32At(row, x));
  }
  const norms = f64x2.splat(norm);
  for (let y = 0; y < height; y++) {
    const out = v + ((<usize>(y * width)) << 2);
    const enter = rows + ((<usize>(min(height - 1, y + radius + 1) * width)) << 2);
    const leave = rows + ((<usize>(max(0, y - radius) * width)) << 2);
    let x = 0;
    for (; x + 4 <= width; x += 4) {
      const at = (<usize>x) << 2;
      const sum = v128.load(sums + at);
      const e = v128.load(enter + at);
      const l = v128.load(leave + at);
      const sumLow = lo(sum);
      const sumHigh = hi(sum);
      v128.store(out + at, joined(f64x2.mul(sumLow, norms), f64x2.mul(sumHigh, norms)));
      const nextLow = f64x2.sub(f64x2.add(sumLow, lo(e)), lo(l));
      const nextHigh = f64x2.sub(f64x2.add(sumHigh, hi(e)), hi(l));
      v128.store(sums + at, joined(nextLow, nextHigh));
    }
    for (; x < width; x++) {
      const sum = f32At(sums, x);
      setF32(out, x, sum * norm);
      setF32(sums, x, sum + f32At(enter, x) - f32At(leave, x));
    }
  }
}

/**
 * Each quarter-resolution pixel's 2×2 colour sum, colour bin and side (`Samples` in the reference),
 * from the half-resolution RGB `data` (`width`×`height`). `coverage` is 0 when the photo fills the canvas.
 */
export function personSample(
  data: usize,
  width: i32,
  height: i32,
  prior: usize,
  face: usize,
  coverage: usize,
  bins: usize,
  side: usize,
  colour: usize,
): void {
  const qw = (width + 1) >> 1;
  const qh = (height + 1) >> 1;
  let q = 0;
  for (let y = 0; y < qh; y++) {
    const row0 = data + <usize>(y * 2 * width * 3);
    const row1 = data + <usize>(min(height - 1, y * 2 + 1) * width * 3);
    for (let x = 0; x < qw; x++, q++) {
      const left = <usize>(x * 6);
      const right = <usize>(min(width - 1, x * 2 + 1) * 3);
      const a = row0 + left;
      const b = row0 + right;
      const c = row1 + left;
      const d = row1 + right;
      const r = <i32>load<u8>(a) + <i32>load<u8>(b) + <i32>load<u8>(c) + <i32>load<u8>(d);
      const g = <i32>load<u8>(a, 1) + <i32>load<u8>(b, 1) + <i32>load<u8>(c, 1) + <i32>load<u8>(d, 1);
      const bl = <i32>load<u8>(a, 2) + <i32>load<u8>(b, 2) + <i32>load<u8>(c, 2) + <i32>load<u8>(d, 2);
      const at = colour + <usize>(q * 6);
      store<u16>(at, <u16>r);
      store<u16>(at, <u16>g, 2);
      store<u16>(at, <u16>bl, 4);
      store<u16>(bins + ((<usize>q) << 1), <u16>(((r >> 6) << 8) | ((g >> 6) << 4) | (bl >> 6)));
      const p = f32At(prior, q);
      let s: u8 = 0;
      if (load<u8>(face + <usize>q) !== 0 || p >= PERSON_SURE) s = PERSON_SIDE;
      else if (p <= BACKGROUND_SURE && (coverage === 0 || f32At(coverage, q) >= 1)) s = ROOM_SIDE;
      store<u8>(side + <usize>q, s);
    }
  }
}

/**
 * The visitor's and the room's colour histograms (doubles, BINS each). With `odds` (the first
 * reading's log-odds table, else 0) only the visitor's is counted, leaving out colours the first
 * reading gave to the room.
 */
export function personHistograms(bins: usize, side: usize, n: i32, odds: usize, person: usize, room: usize): void {
  memory.fill(person, 0, (<usize>BINS) << 3);
  if (odds === 0) memory.fill(room, 0, (<usize>BINS) << 3);
  for (let q = 0; q < n; q++) {
    const bin = <i32>load<u16>(bins + ((<usize>q) << 1));
    const s = load<u8>(side + <usize>q);
    if (s === PERSON_SIDE) {
      if (odds === 0 || f32At(odds, bin) > WALL_LOGIT) setF64(person, bin, f64At(person, bin) + 1);
    } else if (s === ROOM_SIDE && odds === 0) {
      setF64(room, bin, f64At(room, bin) + 1);
    }
  }
}

/** A histogram blurred 3×3×3 over the RGB bins into `out` and normalised to sum 1; `tmp` is BINS doubles. */
export function personDensities(histogram: usize, out: usize, tmp: usize): void {
  blurBinsAlong(histogram, tmp, 1);
  blurBinsAlong(tmp, out, LEVELS);
  blurBinsAlong(out, tmp, LEVELS * LEVELS);
  memory.copy(out, tmp, (<usize>BINS) << 3);
  let total: f64 = 0;
  for (let b = 0; b < BINS; b++) total += f64At(out, b);
  if (total > 0) for (let b = 0; b < BINS; b++) setF64(out, b, f64At(out, b) / total);
}

function blurBinsAlong(from: usize, to: usize, stride: i32): void {
  for (let b = 0; b < BINS; b++) {
    const at = (b / stride) % LEVELS;
    let sum = f64At(from, b);
    if (at > 0) sum += f64At(from, b - stride);
    if (at < LEVELS - 1) sum += f64At(from, b + stride);
    setF64(to, b, sum);
  }
}

/** Each pixel's colour evidence from the table by its bin, into `near` and `far` alike. */
export function personEvidence(table: usize, bins: usize, n: i32, near: usize, far: usize): void {
  for (let q = 0; q < n; q++) {
    const value = load<f32>(table + ((<usize>load<u16>(bins + ((<usize>q) << 1))) << 2));
    store<f32>(near + ((<usize>q) << 2), value);
    store<f32>(far + ((<usize>q) << 2), value);
  }
}

/** The model's clamped log-odds for probability `p`, from the 1/1024-step table. */
function modelLogit(modelLogits: usize, p: f64): f64 {
  return f32At(modelLogits, <i32>(p * SIGMOID_STEPS + 0.5));
}

/** The first reading (model and broad colours): 1 for the visitor, 0 for the room, into `settled` and `first`. */
export function personFirstReading(
  prior: usize,
  face: usize,
  far: usize,
  n: i32,
  modelLogits: usize,
  settled: usize,
  first: usize,
): void {
  for (let q = 0; q < n; q++) {
    const logit = modelLogit(modelLogits, f32At(prior, q)) + COLOUR_WEIGHT * f32At(far, q);
    const visitor: u8 = load<u8>(face + <usize>q) !== 0 || logit >= 0 ? 1 : 0;
    setF32(settled, q, <f64>visitor);
    store<u8>(first + <usize>q, visitor);
  }
}

/** A blurred first reading turned into settledness: 1 far from its boundary, 0 on it. */
export function personSettledness(settled: usize, n: i32): void {
  for (let q = 0; q < n; q++) setF32(settled, q, Math.abs(f32At(settled, q) - 0.5) * 2);
}

/**
 * Sums of the settled visitor's and room's colours (r, g, b, count each, LOCAL_MAPS maps of `m`
 * floats one after another in `sums`) per eighth-resolution pixel.
 */
export function personRimSums(
  colour: usize,
  first: usize,
  settled: usize,
  coverage: usize,
  width: i32,
  height: i32,
  sums: usize,
  m: i32,
): void {
  memory.fill(sums, 0, (<usize>(LOCAL_MAPS * m)) << 2);
  const ew = (width + 1) >> 1;
  let q = 0;
  for (let y = 0; y < height; y++) {
    const row = (y >> 1) * ew;
    for (let x = 0; x < width; x++, q++) {
      if (f32At(settled, q) < SETTLED_ENOUGH) continue;
      let map = -1;
      if (load<u8>(first + <usize>q) !== 0) map = 0;
      else if (coverage === 0 || f32At(coverage, q) >= 1) map = 4;
      if (map < 0) continue;
      const e = row + (x >> 1);
      const at = colour + <usize>(q * 6);
      const base = sums + ((<usize>(map * m + e)) << 2);
      const step = (<usize>m) << 2;
      store<f32>(base, <f32>(<f64>load<f32>(base) + <f64>load<u16>(at)));
      store<f32>(base + step, <f32>(<f64>load<f32>(base + step) + <f64>load<u16>(at, 2)));
      store<f32>(base + 2 * step, <f32>(<f64>load<f32>(base + 2 * step) + <f64>load<u16>(at, 4)));
      store<f32>(base + 3 * step, <f32>(<f64>load<f32>(base + 3 * step) + 1));
    }
  }
}

/** Each unsettled pixel's evidence from the blurred local colour means of either side. */
export function personRimDecide(
  near: usize,
  colour: usize,
  settled: usize,
  width: i32,
  height: i32,
  sums: usize,
  m: i32,
): void {
  const ew = (width + 1) >> 1;
  const step = (<usize>m) << 2;
  let q = 0;
  for (let y = 0; y < height; y++) {
    const row = (y >> 1) * ew;
    for (let x = 0; x < width; x++, q++) {
      if (f32At(settled, q) >= SETTLED_ENOUGH) continue;
      const e = sums + ((<usize>(row + (x >> 1))) << 2);
      const np = <f64>load<f32>(e + 3 * step);
      const nr = <f64>load<f32>(e + 7 * step);
      if (np < 0.05 || nr < 0.05) continue;
      const at = colour + <usize>(q * 6);
      const r = <f64>load<u16>(at);
      const g = <f64>load<u16>(at, 2);
      const b = <f64>load<u16>(at, 4);
      const pr = r - <f64>load<f32>(e) / np;
      const pg = g - <f64>load<f32>(e + step) / np;
      const pb = b - <f64>load<f32>(e + 2 * step) / np;
      const rr = r - <f64>load<f32>(e + 4 * step) / nr;
      const rg = g - <f64>load<f32>(e + 5 * step) / nr;
      const rb = b - <f64>load<f32>(e + 6 * step) / nr;
      const toPerson = pr * pr + pg * pg + pb * pb;
      const toRoom = rr * rr + rg * rg + rb * rb;
      setF32(near, q, (COLOUR_LOGIT * (toRoom - toPerson)) / (toRoom + toPerson + LOCAL_SOFTNESS));
    }
  }
}

/** The model's probability and the colour evidence combined, per quarter-resolution pixel, into `decided`. */
export function personDecide(
  prior: usize,
  settled: usize,
  near: usize,
  far: usize,
  face: usize,
  n: i32,
  modelLogits: usize,
  sigmoid: usize,
  decided: usize,
): void {
  for (let q = 0; q < n; q++) {
    if (load<u8>(face + <usize>q) !== 0) {
      store<f32>(decided + ((<usize>q) << 2), 1);
      continue;
    }
    const p = f32At(prior, q);
    const s = f32At(settled, q);
    // Both are 0 or more and never NaN: a comparison picks what Math.min picks.
    const certainty = Math.abs(p - 0.5) * 2;
    const sure = certainty < s ? certainty : s;
    const evidence = f32At(near, q) * (1 - sure) + f32At(far, q) * sure;
    const logit = modelLogit(modelLogits, p) * (RIM_MODEL + (1 - RIM_MODEL) * s) + COLOUR_WEIGHT * evidence;
    const index = <i32>((logit / LOGIT_RANGE + 1) * 0.5 * SIGMOID_STEPS + 0.5);
    store<f32>(decided + ((<usize>q) << 2), load<f32>(sigmoid + ((<usize>index) << 2)));
  }
}

/** `values` times the photo's coverage, in place. */
export function personCovered(values: usize, coverage: usize, n: i32): void {
  for (let q = 0; q < n; q++) setF32(values, q, f32At(values, q) * f32At(coverage, q));
}

/** Bilinear enlargement of `v` (`qw`×`qh`) to twice the size, cropped to `width`×`height`, edges clamped. */
export function personDoubled(v: usize, qw: i32, qh: i32, width: i32, height: i32, out: usize): void {
  for (let y = 0; y < height; y++) {
    const nearRow = y >> 1;
    const farRow = y & 1 ? min(qh - 1, nearRow + 1) : max(0, nearRow - 1);
    const a = v + ((<usize>(nearRow * qw)) << 2);
    const b = v + ((<usize>(farRow * qw)) << 2);
    const o = out + ((<usize>(y * width)) << 2);
    let aLeft = f32At(a, 0);
    let aHere = aLeft;
    let bLeft = f32At(b, 0);
    let bHere = bLeft;
    for (let nx = 0, x = 0; x < width; nx++, x += 2) {
      const right = min(qw - 1, nx + 1);
      const aRight = f32At(a, right);
      const bRight = f32At(b, right);
      setF32(o, x, 0.5625 * aHere + 0.1875 * (aLeft + bHere) + 0.0625 * bLeft);
      if (x + 1 < width) setF32(o, x + 1, 0.5625 * aHere + 0.1875 * (aRight + bHere) + 0.0625 * bRight);
      aLeft = aHere;
      aHere = aRight;
      bLeft = bHere;
      bHere = bRight;
    }
  }
}

/** The first `n` of `decided` as 1 (the visitor's, 0.5 or more) or 0, into `ramp`. */
export function personRamp(decided: usize, n: i32, ramp: usize): void {
  for (let q = 0; q < n; q++) store<f32>(ramp + ((<usize>q) << 2), f32At(decided, q) >= 0.5 ? 1 : 0);
}

/** A blurred share this near 0 or 1 is a whole neighbourhood's: the running sums leave it a hair off. */
const WHOLE_SHARE: f64 = 1e-4;
/** How far the dither's thresholds stray from one half, at full reach. */
const FRAY_SPREAD: f64 = 0.8;

/**
 * The frayed band above the chin (`fray` in `src/person-mask.ts`): rows 0 to `rows` − 1 of
 * `decided`, by the blurred visitor share `ramp` and the thresholds of the value noise on a grid of
 * `cell` pixels, fading out over `fade` rows below `chin`.
 */
export function personFray(
  decided: usize,
  face: usize,
  ramp: usize,
  width: i32,
  rows: i32,
  chin: f64,
  fade: f64,
  cell: f64,
): void {
  for (let y = 0; y < rows; y++) {
    const reach = <f64>y <= chin ? 1 : 1 - (<f64>y - chin) / fade;
    for (let x = 0, q = y * width; x < width; x++, q++) {
      const r = f32At(ramp, q);
      if (load<u8>(face + <usize>q) !== 0 || r < WHOLE_SHARE || r > 1 - WHOLE_SHARE) continue;
      const threshold = 0.5 + (blob(<f64>x / cell, <f64>y / cell) - 0.5) * FRAY_SPREAD * reach;
      const here = f32At(decided, q);
      setF32(decided, q, r >= threshold ? (here > 0.75 ? here : 0.75) : here < 0.25 ? here : 0.25);
    }
  }
}

/** Smooth value noise in [0, 1): hashed lattice values, bilinearly interpolated. */
function blob(x: f64, y: f64): f64 {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const ix = <i32>x0;
  const iy = <i32>y0;
  const top = lattice(ix, iy) * (1 - sx) + lattice(ix + 1, iy) * sx;
  const bottom = lattice(ix, iy + 1) * (1 - sx) + lattice(ix + 1, iy + 1) * sx;
  return top * (1 - sy) + bottom * sy;
}

function lattice(x: i32, y: i32): f64 {
  let h = (x * 0x27d4eb2d) ^ (y * 0x165667b1);
  h = (h ^ (h >>> 15)) * 0x85ebca6b;
  h ^= h >>> 13;
  return <f64>(<u32>h) / 4294967296.0;
}

// Read by `src/person-mask.ts` (and its reference), so each is defined once.
export {
  BINS as personBins,
  COLOUR_LOGIT as personColourLogit,
  COLOUR_WEIGHT as personColourWeight,
  LEVELS as personLevels,
  LOCAL_MAPS as personLocalMaps,
  LOGIT_RANGE as personLogitRange,
  MODEL_LOGIT as personModelLogit,
  SIGMOID_STEPS as personSigmoidSteps,
};
