import type { RgbImage } from '../../decode.js';
import { fillsCanvas } from '../../framing.js';
import {
  BINS,
  COLOUR_LOGIT,
  COLOUR_WEIGHT,
  FAR,
  FRAY_CELL,
  FRAY_FADE,
  FRAY_RADIUS,
  faceOval,
  hairline,
  LEVELS,
  LOCAL,
  LOGIT_RANGE,
  logOdds,
  MODEL_LOGITS,
  type ModelMask,
  type PersonSource,
  QUARTER,
  SETTLED,
  SIGMOID,
  SIGMOID_STEPS,
} from '../../person-mask.js';
import { photoCoverage } from './framing.js';
import { upsampleMask } from './resample.js';

/** A fresh array where the engine takes a scratch one: the reference's loops share no memory with it. */
function scratch<T>(_key: string, Kind: new (length: number) => T, length: number): T {
  return new Kind(length);
}

/** Model probabilities above this sample the visitor's colours, below BACKGROUND_SURE the room's. */
const PERSON_SURE = 0.9;
const BACKGROUND_SURE = 0.1;
/**
 * A first reading's colours this much likelier in the room than on the visitor are left out of the
 * visitor's colours the second time: stretches of wall the model took for the person.
 */
const WALL_LOGIT = -1.5;
/** Share of the model's log-odds that still counts on the line a first reading drew against it. */
const RIM_MODEL = 0.25;

/** The JavaScript the engine's WebAssembly person-mask loops replaced, kept as the reference their test compares with. */
export function personProbability(source: PersonSource, model: ModelMask): Float32Array {
  const { half, framing, from, landmarks } = source;
  // Decided at a quarter of the artwork's resolution, about the model's own (its 256 cells span
  // 4–5 artwork pixels), and drawn up to half resolution at the end: a quarter of the work.
  const width = Math.ceil(half.width / 2);
  const height = Math.ceil(half.height / 2);
  const n = width * height;
  const prior = upsampleMask(
    model.mask,
    model.width,
    model.height,
    width,
    height,
    scratch('person-prior', Float32Array, n),
  );
  // Where the framing reaches past the photo, its grey fill is no colour of the room.
  const coverage = fillsCanvas(framing, from.width, from.height)
    ? undefined
    : photoCoverage(framing, from.width, from.height, QUARTER, scratch('person-coverage', Float32Array, n));
  const face = faceOval(landmarks.outline, width, height, QUARTER);
  const sampled = sample(half, prior, face, coverage);
  const table = colourTable(sampled);
  const near = scratch('person-evidence', Float32Array, n);
  for (let q = 0; q < n; q++) near[q] = table[sampled.bins[q] as number] as number;
  const far = scratch('person-evidence-far', Float32Array, n);
  far.set(near);
  boxBlur(far, width, height, FAR);
  const first = scratch('person-first', Uint8Array, n);
  const settled = settledness(prior, face, far, width, height, first);
  decideRim(near, sampled.colour, first, settled, coverage, width, height);
  const decided = scratch('person-quarter', Float32Array, n);
  for (let q = 0; q < n; q++) {
    const p = prior[q] as number;
    const sure = Math.min(Math.abs(p - 0.5) * 2, settled[q] as number);
    const evidence = (near[q] as number) * (1 - sure) + (far[q] as number) * sure;
    // On the rim the model, just contradicted nearby, counts for less and the local colours more.
    decided[q] = face[q] ? 1 : combine(p, evidence, RIM_MODEL + (1 - RIM_MODEL) * (settled[q] as number));
  }
  fray(decided, face, width, height, hairline(landmarks.outline) / QUARTER);
  // Beyond the photo there is no visitor, only background (even where the face oval would
  // continue past the edge).
  if (coverage) for (let q = 0; q < n; q++) decided[q] = (decided[q] as number) * (coverage[q] as number);
  return doubled(
    decided,
    width,
    height,
    half.width,
    half.height,
    scratch('half-mask', Float32Array, half.width * half.height),
  );
}

/**
 * Hair has no hard outline: it thins out into the room. So above the chin the boundary becomes a
 * band in which the visitor's share falls from 1 to 0, cut into tessera-sized blobs that each go
 * wholly to the visitor or to the room (an ordered dither with smooth, position-hashed thresholds,
 * the same for the same photo): the hair ends in a staggered row of tiles instead of a cut-out line.
 */
function fray(decided: Float32Array, face: Uint8Array, width: number, height: number, chin: number): void {
  const rows = Math.min(height, Math.ceil(chin + FRAY_FADE));
  // Only the rows above the fade's end are frayed; the blur needs a band's width below them.
  const blurred = Math.min(height, rows + 2 * FRAY_RADIUS + 1);
  const ramp = scratch('person-ramp', Float32Array, width * blurred);
  for (let q = 0; q < ramp.length; q++) ramp[q] = (decided[q] as number) >= 0.5 ? 1 : 0;
  boxBlur(ramp, width, blurred, FRAY_RADIUS);
  for (let y = 0; y < rows; y++) {
    const reach = y <= chin ? 1 : 1 - (y - chin) / FRAY_FADE;
    for (let x = 0, q = y * width; x < width; x++, q++) {
      const r = ramp[q] as number;
      // Running sums in floats leave a whole neighbourhood's share a hair off 0 or 1.
      if (face[q] || r < 1e-4 || r > 1 - 1e-4) continue;
      const threshold = 0.5 + (blob(x / FRAY_CELL, y / FRAY_CELL) - 0.5) * 0.8 * reach;
      decided[q] = r >= threshold ? Math.max(decided[q] as number, 0.75) : Math.min(decided[q] as number, 0.25);
    }
  }
}

/** Smooth value noise in [0, 1): hashed lattice values, bilinearly interpolated. */
function blob(x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const top = lattice(x0, y0) * (1 - sx) + lattice(x0 + 1, y0) * sx;
  const bottom = lattice(x0, y0 + 1) * (1 - sx) + lattice(x0 + 1, y0 + 1) * sx;
  return top * (1 - sy) + bottom * sy;
}

function lattice(x: number, y: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 0x100000000;
}

/** Bilinear enlargement to twice the size (cropped to `width`×`height`), edges clamped. */
function doubled(
  v: Float32Array,
  qw: number,
  qh: number,
  width: number,
  height: number,
  out: Float32Array,
): Float32Array {
  // Half-resolution pixel x lies at quarter-resolution coordinate x / 2 − 0.25: weights ¾ and ¼.
  // Each quarter-resolution column gives two pixels of a row, the even one leaning left, the odd
  // one right: the three columns they read roll along the row.
  for (let y = 0; y < height; y++) {
    const near = y >> 1;
    const far = y & 1 ? Math.min(qh - 1, near + 1) : Math.max(0, near - 1);
    const a = near * qw;
    const b = far * qw;
    const o = y * width;
    let aLeft = v[a] as number;
    let aHere = aLeft;
    let bLeft = v[b] as number;
    let bHere = bLeft;
    for (let nx = 0, x = 0; x < width; nx++, x += 2) {
      const right = Math.min(qw - 1, nx + 1);
      const aRight = v[a + right] as number;
      const bRight = v[b + right] as number;
      out[o + x] = 0.5625 * aHere + 0.1875 * (aLeft + bHere) + 0.0625 * bLeft;
      if (x + 1 < width) out[o + x + 1] = 0.5625 * aHere + 0.1875 * (aRight + bHere) + 0.0625 * bRight;
      aLeft = aHere;
      aHere = aRight;
      bLeft = bHere;
      bHere = bRight;
    }
  }
  return out;
}

/** Person probability from the model's probability, weighted, and the colour evidence (log-odds). */
function combine(p: number, evidence: number, modelWeight = 1): number {
  const logit = (MODEL_LOGITS[(p * SIGMOID_STEPS + 0.5) | 0] as number) * modelWeight + COLOUR_WEIGHT * evidence;
  return SIGMOID[((logit / LOGIT_RANGE + 1) * 0.5 * SIGMOID_STEPS + 0.5) | 0] as number;
}

/**
 * How settled each quarter-resolution pixel is: 1 far from where a first reading (the model and the
 * broad colour evidence) changes between visitor and room, 0 on that line. Where a wall has just
 * been taken from the visitor, the rim between them is decided by the near colours, so the wall's
 * last strip beside the arm or the neck goes with the wall.
 */
function settledness(
  prior: Float32Array,
  face: Uint8Array,
  far: Float32Array,
  width: number,
  height: number,
  first: Uint8Array,
): Float32Array {
  const settled = scratch('person-settled', Float32Array, width * height);
  for (let q = 0; q < settled.length; q++) {
    const logit =
      (MODEL_LOGITS[((prior[q] as number) * SIGMOID_STEPS + 0.5) | 0] as number) + COLOUR_WEIGHT * (far[q] as number);
    settled[q] = face[q] || logit >= 0 ? 1 : 0;
    first[q] = settled[q] as number;
  }
  boxBlur(settled, width, height, SETTLED);
  for (let q = 0; q < settled.length; q++) settled[q] = Math.abs((settled[q] as number) - 0.5) * 2;
  return settled;
}

/** Squared RGB distance (of 2×2 sums) that keeps two near-equal distances from deciding much. */
const LOCAL_SOFTNESS = 4800;

/**
 * On the rim, colours seen on neither side decide nothing by the histograms: the blur of hair or
 * an arm into the wall makes colours the room never shows, and a strip of them would stay with the
 * visitor. So each rim pixel is weighed against the mean colours of the settled visitor and the
 * settled room around it (within about 40 artwork pixels), and goes to the nearer: the local
 * colour model of each side that decides the band between them. Means are taken at an eighth of
 * the artwork's resolution, which is ample for averages over 80 pixels.
 */
function decideRim(
  near: Float32Array,
  colour: Uint16Array,
  first: Uint8Array,
  settled: Float32Array,
  coverage: Float32Array | undefined,
  width: number,
  height: number,
): void {
  const ew = Math.ceil(width / 2);
  const eh = Math.ceil(height / 2);
  const m = ew * eh;
  // Per eighth-resolution pixel: the visitor's r, g, b, count, then the room's.
  const sums = Array.from({ length: 8 }, (_, k) => scratch(`person-local-${k}`, Float32Array, m).fill(0));
  const [pr, pg, pb, pn, rr, rg, rb, rn] = sums as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ];
  for (let y = 0, q = 0; y < height; y++) {
    const row = (y >> 1) * ew;
    for (let x = 0; x < width; x++, q++) {
      if ((settled[q] as number) < 0.99) continue;
      const e = row + (x >> 1);
      const r = colour[q * 3] as number;
      const g = colour[q * 3 + 1] as number;
      const b = colour[q * 3 + 2] as number;
      if (first[q]) {
        pr[e] = (pr[e] as number) + r;
        pg[e] = (pg[e] as number) + g;
        pb[e] = (pb[e] as number) + b;
        pn[e] = (pn[e] as number) + 1;
      } else if (!coverage || (coverage[q] as number) >= 1) {
        rr[e] = (rr[e] as number) + r;
        rg[e] = (rg[e] as number) + g;
        rb[e] = (rb[e] as number) + b;
        rn[e] = (rn[e] as number) + 1;
      }
    }
  }
  for (const map of sums) boxBlur(map, ew, eh, LOCAL);
  for (let y = 0, q = 0; y < height; y++) {
    const row = (y >> 1) * ew;
    for (let x = 0; x < width; x++, q++) {
      if ((settled[q] as number) >= 0.99) continue;
      const e = row + (x >> 1);
      const np = pn[e] as number;
      const nr = rn[e] as number;
      // Both sides need a few settled pixels nearby (a window's share, after the blur).
      if (np < 0.05 || nr < 0.05) continue;
      const r = colour[q * 3] as number;
      const g = colour[q * 3 + 1] as number;
      const b = colour[q * 3 + 2] as number;
      const toPerson =
        (r - (pr[e] as number) / np) ** 2 + (g - (pg[e] as number) / np) ** 2 + (b - (pb[e] as number) / np) ** 2;
      const toRoom =
        (r - (rr[e] as number) / nr) ** 2 + (g - (rg[e] as number) / nr) ** 2 + (b - (rb[e] as number) / nr) ** 2;
      near[q] = (COLOUR_LOGIT * (toRoom - toPerson)) / (toRoom + toPerson + LOCAL_SOFTNESS);
    }
  }
}

/** The quarter-resolution samples the colours are read from. */
interface Samples {
  /** Colour bin of each sample. */
  bins: Uint16Array;
  /** Which side the sample teaches: PERSON_SIDE, ROOM_SIDE or neither (0). */
  side: Uint8Array;
  /** Sums of the 2×2 half-resolution pixels' RGB (four times their mean), interleaved. */
  colour: Uint16Array;
}
const PERSON_SIDE = 1;
const ROOM_SIDE = 2;

/** Each quarter-resolution pixel's colour bin (of its 2×2 half-resolution pixels' mean) and side. */
function sample(half: RgbImage, prior: Float32Array, face: Uint8Array, coverage: Float32Array | undefined): Samples {
  const { data, width, height } = half;
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const bins = scratch('person-bins', Uint16Array, qw * qh);
  const side = scratch('person-side', Uint8Array, qw * qh);
  const colour = scratch('person-colour', Uint16Array, qw * qh * 3);
  for (let y = 0, q = 0; y < qh; y++) {
    const row0 = y * 2 * width * 3;
    const row1 = Math.min(height - 1, y * 2 + 1) * width * 3;
    for (let x = 0; x < qw; x++, q++) {
      const a = row0 + x * 6;
      const b = row0 + Math.min(width - 1, x * 2 + 1) * 3;
      const c = row1 + x * 6;
      const d = row1 + Math.min(width - 1, x * 2 + 1) * 3;
      const r = (data[a] as number) + (data[b] as number) + (data[c] as number) + (data[d] as number);
      const g = (data[a + 1] as number) + (data[b + 1] as number) + (data[c + 1] as number) + (data[d + 1] as number);
      const bl = (data[a + 2] as number) + (data[b + 2] as number) + (data[c + 2] as number) + (data[d + 2] as number);
      colour[q * 3] = r;
      colour[q * 3 + 1] = g;
      colour[q * 3 + 2] = bl;
      // A sum of four 8-bit values shifted by 6: the mean's top 4 bits.
      bins[q] = ((r >> 6) << 8) | ((g >> 6) << 4) | (bl >> 6);
      const p = prior[q] as number;
      side[q] =
        face[q] || p >= PERSON_SURE
          ? PERSON_SIDE
          : p <= BACKGROUND_SURE && (!coverage || (coverage[q] as number) >= 1)
            ? ROOM_SIDE
            : 0;
    }
  }
  return { bins, side, colour };
}

/**
 * For each colour bin, how much likelier it is on the visitor than in the room (log-odds). The
 * visitor's colours come from where the model is sure of the person and from the face; the room's
 * from where it is sure of the background. The model's sure person may still hold a stretch of wall
 * (it fills the gap between an arm and the body), so the visitor's colours are read a second time
 * without the colours the first reading gave to the room: the wall's colour then drops out of
 * them, while skin, hair and clothing, plentiful on the visitor, stay.
 */
function colourTable({ bins, side }: Samples): Float32Array {
  const person = scratch('person-histogram', Float64Array, BINS).fill(0);
  const room = scratch('room-histogram', Float64Array, BINS).fill(0);
  for (let q = 0; q < bins.length; q++) {
    const bin = bins[q] as number;
    if (side[q] === PERSON_SIDE) person[bin] = (person[bin] as number) + 1;
    else if (side[q] === ROOM_SIDE) room[bin] = (room[bin] as number) + 1;
  }
  const roomDensity = densities(room, 'room-density');
  const first = logOdds(densities(person, 'person-density'), roomDensity, 'first-colour-odds');
  person.fill(0);
  for (let q = 0; q < bins.length; q++) {
    const bin = bins[q] as number;
    if (side[q] === PERSON_SIDE && (first[bin] as number) > WALL_LOGIT) person[bin] = (person[bin] as number) + 1;
  }
  return logOdds(densities(person, 'person-density'), roomDensity, 'colour-odds');
}

/**
 * Separable box blur with running sums, edges clamped, in place. Written for speed (the mask blurs
 * some 400,000 values per render): rows copied out whole, the clamping kept to the ends of a row.
 */
function boxBlur(v: Float32Array, width: number, height: number, radius: number): Float32Array {
  const line = scratch('person-blur-line', Float32Array, width);
  const norm = 1 / (2 * radius + 1);
  // Only the first `radius` and the last `radius` + 1 columns reach past the row's ends.
  const inner0 = Math.min(width, radius);
  const inner1 = Math.max(inner0, width - radius - 1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    line.set(v.subarray(row, row + width));
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += line[Math.min(width - 1, Math.max(0, k))] as number;
    for (let x = 0; x < inner0; x++) {
      v[row + x] = sum * norm;
      sum += (line[Math.min(width - 1, x + radius + 1)] as number) - (line[Math.max(0, x - radius)] as number);
    }
    for (let x = inner0, o = row + x; x < inner1; x++, o++) {
      v[o] = sum * norm;
      sum += (line[x + radius + 1] as number) - (line[x - radius] as number);
    }
    for (let x = inner1; x < width; x++) {
      v[row + x] = sum * norm;
      sum += (line[Math.min(width - 1, x + radius + 1)] as number) - (line[Math.max(0, x - radius)] as number);
    }
  }
  // Down the columns a whole row at a time, so memory is read in order.
  const source = scratch('person-blur-source', Float32Array, v.length);
  source.set(v);
  const sums = scratch('person-blur-sums', Float32Array, width).fill(0);
  for (let k = -radius; k <= radius; k++) {
    const row = Math.min(height - 1, Math.max(0, k)) * width;
    for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (source[row + x] as number);
  }
  for (let y = 0; y < height; y++) {
    const enter = Math.min(height - 1, y + radius + 1) * width;
    const leave = Math.max(0, y - radius) * width;
    for (let x = 0, o = y * width, e = enter, l = leave; x < width; x++, o++, e++, l++) {
      const sum = sums[x] as number;
      v[o] = sum * norm;
      sums[x] = sum + (source[e] as number) - (source[l] as number);
    }
  }
  return v;
}

/** A histogram smoothed over neighbouring bins and normalised to sum 1 (all zeros stay zeros). */
function densities(histogram: Float64Array, name: string): Float64Array {
  const out = scratch(name, Float64Array, BINS);
  blurBins(histogram, out);
  let total = 0;
  for (let b = 0; b < BINS; b++) total += out[b] as number;
  if (total > 0) for (let b = 0; b < BINS; b++) out[b] = (out[b] as number) / total;
  return out;
}

/** A 3×3×3 box over the RGB bins, so near colours count as the same colour. */
function blurBins(histogram: Float64Array, out: Float64Array): void {
  const tmp = scratch('colour-bins-blur', Float64Array, BINS);
  blurBinsAlong(histogram, tmp, 1);
  blurBinsAlong(tmp, out, LEVELS);
  blurBinsAlong(out, tmp, LEVELS * LEVELS);
  out.set(tmp);
}

function blurBinsAlong(from: Float64Array, to: Float64Array, stride: number): void {
  for (let b = 0; b < BINS; b++) {
    const at = Math.floor(b / stride) % LEVELS;
    let sum = from[b] as number;
    if (at > 0) sum += from[b - stride] as number;
    if (at < LEVELS - 1) sum += from[b + stride] as number;
    to[b] = sum;
  }
}
