import type { RgbImage } from './decode.js';
import { type Framing, fillsCanvas, photoCoverage } from './framing.js';
import type { Landmarks } from './landmarks.js';
import { upsampleMask } from './resample.js';
import { addressOf, engineTable, scratch } from './scratch.js';
import { wasmConstant, wasmFunction } from './wasm.js';

/**
 * Where the visitor is, as a person probability (0–1) on the framed photo at half the artwork's
 * resolution (`tessellate` paints tiles averaging 0.5 or more from the portrait palette). The
 * selfie model's 256×256 mask is coarse and, between an arm and the body or beside the hair, is
 * sometimes sure of "person" where the photo shows its wall or door: painted from the portrait
 * palette, that wall comes out as lilac, white or wood-brown tiles beside the neck. So its verdict
 * is weighed against the photo's own colours (log-odds, model + colour): a colour the room is full
 * of and the visitor hardly shows is taken for the room even where the model says person, and the
 * other way round where the model is unsure. The face (FaceMesh's oval, not an ellipse around it,
 * which reached past the jaw) always counts as the visitor; hair ends in a frayed band.
 */

/** What the person mask is built from: the framed photo and where it came from. */
export interface PersonSource {
  framing: Framing;
  /** Size of the image the framing's photo coordinates refer to. */
  from: { width: number; height: number };
  /** The framed photo at half the artwork's resolution. */
  half: RgbImage;
  /** The face's landmarks in artwork pixels. */
  landmarks: Landmarks;
}

/** The selfie model's output: person probability (0–255) on its own square grid over the framed photo. */
export interface ModelMask {
  mask: Uint8Array;
  width: number;
  height: number;
}

/*
 * The thresholds the loops apply (which model probabilities teach each side's colours, which
 * colours a second reading leaves out, how much the model counts on the rim) live beside them in
 * `assembly/person-mask.ts`, which compiles to the loops in `engine.wasm`.
 */
/** The model's log-odds are clamped here: a model certain of a wall is still only this certain. */
const MODEL_LOGIT = wasmConstant('personModelLogit');
/**
 * Weight of the colour evidence against the model's. The strongest evidence (COLOUR_LOGIT: a
 * colour the room is full of and the visitor shows nowhere else) outweighs a certain model.
 */
export const COLOUR_WEIGHT = wasmConstant('personColourWeight');
/** Colour log-odds are clamped: an unseen colour is no proof of anything. */
export const COLOUR_LOGIT = wasmConstant('personColourLogit');
/**
 * Where the model is unsure (the rim, hair), colour evidence is taken per quarter-resolution pixel
 * (the mean of 2×2 half-resolution pixels); where it is sure, averaged over FAR of them (about 25
 * artwork pixels, a body tile), so a thin stripe of a room colour on a dress or a strand of hair
 * never overrules it, a wall does.
 */
export const FAR = 6;
/** Half-width (quarter-resolution pixels, 16 artwork pixels) of the rim around a first reading's boundary. */
export const SETTLED = 4;
/** RGB quantised to 4 bits a channel: 4,096 bins, each about 5–8 ΔE wide. */
export const LEVELS = wasmConstant('personLevels');
export const BINS = wasmConstant('personBins');
/** Artwork pixels per quarter-resolution pixel. */
export const QUARTER = 4;
/** Log-odds → probability, tabulated over ±LOGIT_RANGE. */
export const LOGIT_RANGE = wasmConstant('personLogitRange');
export const SIGMOID_STEPS = wasmConstant('personSigmoidSteps');
/** The tables live in the engine's memory, where its loops read them. */
export const SIGMOID = engineTable(
  'person-sigmoid',
  SIGMOID_STEPS + 1,
  (k) => 1 / (1 + Math.exp(-((k / SIGMOID_STEPS) * 2 - 1) * LOGIT_RANGE)),
);
/** Model probability (in 1/1024 steps) → clamped log-odds. */
export const MODEL_LOGITS = engineTable('person-model-logits', SIGMOID_STEPS + 1, (k) => {
  const p = k / SIGMOID_STEPS;
  return clamp(Math.log((p + 1e-3) / (1 - p + 1e-3)), MODEL_LOGIT);
});

type Pointer = number;

const sampleLoop =
  wasmFunction<
    (
      data: Pointer,
      width: number,
      height: number,
      prior: Pointer,
      face: Pointer,
      coverage: Pointer,
      bins: Pointer,
      side: Pointer,
      colour: Pointer,
    ) => void
  >('personSample');
const histogramsLoop =
  wasmFunction<(bins: Pointer, side: Pointer, n: number, odds: Pointer, person: Pointer, room: Pointer) => void>(
    'personHistograms',
  );
const densitiesLoop = wasmFunction<(histogram: Pointer, out: Pointer, tmp: Pointer) => void>('personDensities');
const evidenceLoop =
  wasmFunction<(table: Pointer, bins: Pointer, n: number, near: Pointer, far: Pointer) => void>('personEvidence');
const boxBlurLoop =
  wasmFunction<(v: Pointer, width: number, height: number, radius: number, rows: Pointer, sums: Pointer) => void>(
    'personBoxBlur',
  );
const firstReadingLoop =
  wasmFunction<
    (
      prior: Pointer,
      face: Pointer,
      far: Pointer,
      n: number,
      modelLogits: Pointer,
      settled: Pointer,
      first: Pointer,
    ) => void
  >('personFirstReading');
const settlednessLoop = wasmFunction<(settled: Pointer, n: number) => void>('personSettledness');
const rimSumsLoop =
  wasmFunction<
    (
      colour: Pointer,
      first: Pointer,
      settled: Pointer,
      coverage: Pointer,
      width: number,
      height: number,
      sums: Pointer,
      m: number,
    ) => void
  >('personRimSums');
const rimDecideLoop =
  wasmFunction<
    (near: Pointer, colour: Pointer, settled: Pointer, width: number, height: number, sums: Pointer, m: number) => void
  >('personRimDecide');
const decideLoop =
  wasmFunction<
    (
      prior: Pointer,
      settled: Pointer,
      near: Pointer,
      far: Pointer,
      face: Pointer,
      n: number,
      modelLogits: Pointer,
      sigmoid: Pointer,
      decided: Pointer,
    ) => void
  >('personDecide');
const rampLoop = wasmFunction<(decided: Pointer, n: number, ramp: Pointer) => void>('personRamp');
const frayLoop =
  wasmFunction<
    (
      decided: Pointer,
      face: Pointer,
      ramp: Pointer,
      width: number,
      rows: number,
      chin: number,
      fade: number,
      cell: number,
    ) => void
  >('personFray');
const coveredLoop = wasmFunction<(values: Pointer, coverage: Pointer, n: number) => void>('personCovered');
const doubledLoop =
  wasmFunction<(v: Pointer, qw: number, qh: number, width: number, height: number, out: Pointer) => void>(
    'personDoubled',
  );

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
  const far = scratch('person-evidence-far', Float32Array, n);
  evidenceLoop(table.byteOffset, sampled.bins.byteOffset, n, near.byteOffset, far.byteOffset);
  boxBlur(far, width, height, FAR);
  const first = scratch('person-first', Uint8Array, n);
  const settled = settledness(prior, face, far, width, height, first);
  decideRim(near, sampled.colour, first, settled, coverage, width, height);
  const decided = scratch('person-quarter', Float32Array, n);
  // On the rim the model, just contradicted nearby, counts for less and the local colours more.
  decideLoop(
    prior.byteOffset,
    settled.byteOffset,
    near.byteOffset,
    far.byteOffset,
    face.byteOffset,
    n,
    MODEL_LOGITS.byteOffset,
    SIGMOID.byteOffset,
    decided.byteOffset,
  );
  fray(decided, face, width, height, hairline(landmarks.outline) / QUARTER);
  // Beyond the photo there is no visitor, only background (even where the face oval would
  // continue past the edge).
  if (coverage) coveredLoop(decided.byteOffset, coverage.byteOffset, n);
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
 * Below this line (the chin, in artwork pixels) the silhouette is shoulders and clothing, cut clean;
 * above it, hair, which ends in a frayed row of tesserae. The fraying fades out over FRAY_FADE below.
 */
export function hairline(outline: Float32Array): number {
  let chin = Number.NEGATIVE_INFINITY;
  for (let k = 1; k < outline.length; k += 2) chin = Math.max(chin, outline[k] as number);
  return chin;
}
/** Half-width of the frayed band, in quarter-resolution pixels (20 artwork pixels). */
export const FRAY_RADIUS = 5;
/** Size of the blobs the band is cut into: about one hair-edge tessera (16 artwork pixels). */
export const FRAY_CELL = 4;
/** Quarter-resolution pixels below the hairline over which the fraying fades out. */
export const FRAY_FADE = 40;

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
  rampLoop(decided.byteOffset, ramp.length, ramp.byteOffset);
  boxBlur(ramp, width, blurred, FRAY_RADIUS);
  // Each blob goes wholly to the visitor or the room by smooth value noise (hashed lattice values,
  // bilinearly interpolated), the same for the same photo.
  frayLoop(decided.byteOffset, face.byteOffset, ramp.byteOffset, width, rows, chin, FRAY_FADE, FRAY_CELL);
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
  doubledLoop(v.byteOffset, qw, qh, width, height, out.byteOffset);
  return out;
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
  const n = width * height;
  const settled = scratch('person-settled', Float32Array, n);
  firstReadingLoop(
    prior.byteOffset,
    face.byteOffset,
    far.byteOffset,
    n,
    MODEL_LOGITS.byteOffset,
    settled.byteOffset,
    first.byteOffset,
  );
  boxBlur(settled, width, height, SETTLED);
  settlednessLoop(settled.byteOffset, n);
  return settled;
}

/** Eighth-resolution pixels over which the rim's neighbours on either side are averaged (40 px). */
export const LOCAL = 5;
/** The visitor's r, g, b and count, then the room's: the maps of local colour sums. */
const LOCAL_MAPS = wasmConstant('personLocalMaps');

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
  const sums = scratch('person-local', Float32Array, LOCAL_MAPS * m);
  const cover = coverage ? coverage.byteOffset : 0;
  rimSumsLoop(colour.byteOffset, first.byteOffset, settled.byteOffset, cover, width, height, sums.byteOffset, m);
  for (let k = 0; k < LOCAL_MAPS; k++) boxBlur(sums.subarray(k * m, (k + 1) * m), ew, eh, LOCAL);
  rimDecideLoop(near.byteOffset, colour.byteOffset, settled.byteOffset, width, height, sums.byteOffset, m);
}

function clamp(v: number, limit: number): number {
  return v > limit ? limit : v < -limit ? -limit : v;
}

/** The quarter-resolution samples the colours are read from. */
interface Samples {
  /** Colour bin of each sample. */
  bins: Uint16Array;
  /** Which side the sample teaches: the visitor's (1), the room's (2) or neither (0). */
  side: Uint8Array;
  /** Sums of the 2×2 half-resolution pixels' RGB (four times their mean), interleaved. */
  colour: Uint16Array;
}

/** Each quarter-resolution pixel's colour bin (of its 2×2 half-resolution pixels' mean) and side. */
function sample(half: RgbImage, prior: Float32Array, face: Uint8Array, coverage: Float32Array | undefined): Samples {
  const { data, width, height } = half;
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const bins = scratch('person-bins', Uint16Array, qw * qh);
  const side = scratch('person-side', Uint8Array, qw * qh);
  const colour = scratch('person-colour', Uint16Array, qw * qh * 3);
  sampleLoop(
    addressOf(data, 'person-half'),
    width,
    height,
    prior.byteOffset,
    face.byteOffset,
    coverage ? coverage.byteOffset : 0,
    bins.byteOffset,
    side.byteOffset,
    colour.byteOffset,
  );
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
  const person = scratch('person-histogram', Float64Array, BINS);
  const room = scratch('room-histogram', Float64Array, BINS);
  histogramsLoop(bins.byteOffset, side.byteOffset, bins.length, 0, person.byteOffset, room.byteOffset);
  const roomDensity = densities(room, 'room-density');
  const first = logOdds(densities(person, 'person-density'), roomDensity, 'first-colour-odds');
  histogramsLoop(bins.byteOffset, side.byteOffset, bins.length, first.byteOffset, person.byteOffset, room.byteOffset);
  return logOdds(densities(person, 'person-density'), roomDensity, 'colour-odds');
}

/** Separable box blur with running sums, edges clamped, in place. */
function boxBlur(v: Float32Array, width: number, height: number, radius: number): Float32Array {
  const rows = scratch('person-blur-rows', Float32Array, width * height);
  const sums = scratch('person-blur-sums', Float32Array, width);
  boxBlurLoop(v.byteOffset, width, height, radius, rows.byteOffset, sums.byteOffset);
  return v;
}

/**
 * A histogram smoothed over neighbouring bins (a 3×3×3 box, so near colours count as the same
 * colour) and normalised to sum 1 (all zeros stay zeros).
 */
function densities(histogram: Float64Array, name: string): Float64Array {
  const out = scratch(name, Float64Array, BINS);
  densitiesLoop(histogram.byteOffset, out.byteOffset, scratch('colour-bins-blur', Float64Array, BINS).byteOffset);
  return out;
}

/** Log-odds of visitor against room for each bin, clamped. */
export function logOdds(person: Float64Array, room: Float64Array, name: string): Float32Array {
  const table = scratch(name, Float32Array, BINS);
  // A floor of a fraction of the uniform density: a colour seen on neither side is undecided.
  const floor = 0.02 / BINS;
  for (let b = 0; b < BINS; b++) {
    table[b] = clamp(Math.log(((person[b] as number) + floor) / ((room[b] as number) + floor)), COLOUR_LOGIT);
  }
  return table;
}

/** 1 inside FaceMesh's face oval (a closed polygon in artwork pixels), on a grid of `cell`-pixel cells. */
export function faceOval(outline: Float32Array, width: number, height: number, cell: number): Uint8Array {
  const inside = scratch('face-oval', Uint8Array, width * height).fill(0);
  const count = outline.length / 2;
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < count; k++) {
    y0 = Math.min(y0, (outline[k * 2 + 1] as number) / cell);
    y1 = Math.max(y1, (outline[k * 2 + 1] as number) / cell);
  }
  const crossings: number[] = [];
  for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(height - 1, Math.ceil(y1)); y++) {
    const py = y + 0.5;
    crossings.length = 0;
    for (let k = 0; k < count; k++) {
      const ax = (outline[k * 2] as number) / cell;
      const ay = (outline[k * 2 + 1] as number) / cell;
      const j = (k + 1) % count;
      const bx = (outline[j * 2] as number) / cell;
      const by = (outline[j * 2 + 1] as number) / cell;
      if (ay <= py !== by <= py) crossings.push(ax + ((py - ay) / (by - ay)) * (bx - ax));
    }
    crossings.sort((a, b) => a - b);
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      const x0 = Math.max(0, Math.ceil((crossings[c] as number) - 0.5));
      const x1 = Math.min(width - 1, Math.floor((crossings[c + 1] as number) - 0.5));
      for (let x = x0; x <= x1; x++) inside[y * width + x] = 1;
    }
  }
  return inside;
}
