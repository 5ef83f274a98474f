import { TILE_SIZES } from './detail.js';
import type { Point } from './geometry.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { forEachRingPlace } from './pattern.js';
import { NO_TILE } from './refine.js';
import { addressOf, copyBack, scratch } from './scratch.js';
import { wasmFunction } from './wasm.js';

/**
 * The story's own background stones: on the 4:5's concentric rings around the face (the same
 * centre and spacing, at the 4:5's phases where the story keeps enough of a ring to read them),
 * wherever the story keeps no 4:5 tile; and the pixels each one covers.
 */

/** Background tile spacing, as in the 4:5's rings. */
export const SPACING = TILE_SIZES.background;

export interface RingSeed {
  /** Place in 4:5 pixels (the story's rows less its offset). */
  x: number;
  y: number;
  /** Direction of the seed's ring (unit vector): its tessera is a square along it. */
  cos: number;
  sin: number;
  /** Tile index in the story's label map. */
  tile: number;
}

/** Rings the story's canvas needs, at most (the farthest corner from any face centre). */
export const STORY_RINGS = Math.ceil(Math.hypot(STORY_LAYOUT.width, STORY_LAYOUT.height) / SPACING) + 2;

/**
 * The ring places over the story's canvas, inner ring first, numbered from `first` in that order,
 * less those `unneeded` (with nothing free within their reach: the kept tiles fill it). `phases`
 * holds each ring's phase (see `ringPhases`); a ring without one takes it from `random`.
 */
export function ringSeeds(
  centre: Point,
  phases: Float64Array,
  random: () => number,
  first: number,
  unneeded: (x: number, y: number) => boolean,
): RingSeed[] {
  const bounds = {
    left: 0,
    top: -STORY_LAYOUT.offset,
    right: LAYOUT.width,
    bottom: STORY_LAYOUT.height - STORY_LAYOUT.offset,
  };
  // forEachRingPlace asks for one phase per ring, inner first.
  let ring = 0;
  const phaseOf = () => {
    const known = phases[ring++];
    return known === undefined || Number.isNaN(known) ? random() : known;
  };
  const seeds: RingSeed[] = [];
  forEachRingPlace(centre, SPACING, bounds, phaseOf, (x, y, cos, sin) => {
    if (!unneeded(x, y)) seeds.push({ x, y, cos, sin, tile: first + seeds.length });
  });
  return seeds;
}

/**
 * Half-size of the square each seed claims, in spacings. The rings leave no pixel farther than
 * about half a spacing (by the squares' own Chebyshev measure) from its nearest seed, so squares of
 * this size overlap enough that each pixel's nearest seed is among those claiming it.
 */
export const REACH = 0.6;
/** How far (pixels) a seed's square reaches from it, at most. */
export const SQUARE_REACH = Math.ceil(REACH * SPACING * Math.SQRT2);

/** The part of the story's label map the seeds are assigned over. */
export interface Field {
  /** Story rows `from`–`to` and columns `left`–`right`, exclusive. */
  from: number;
  to: number;
  left: number;
  right: number;
  /**
   * 1 for each row of the field (from `from`) where a kept tile or the plaque may lie; the rest
   * start out wholly free.
   */
  mixed: Uint8Array;
}

/** The label of a free pixel (no tile yet); labels from `first` to `first` + the seeds' count are the seeds'. */
export const FREE = NO_TILE;

/**
 * A new stone smaller than this share of a whole one (a corner left between kept tiles) joins the
 * new stone beside it, as a mosaicist cuts one stone to fit rather than set a chip. (The frame cuts
 * stones along the window's edge as the 4:5's are cut: those stay.)
 */
export const CHIP = 0.2;

/**
 * Gives each free pixel of the field its nearest seed's tile by the Chebyshev distance in the
 * seed's ring frame, as the 4:5's background is cut: square stones laid along the rings. Any other
 * label (a kept tile, the plaque) stays, so a seed whose place a kept tile fills cuts a stone from
 * what is left around it. Rather than search the seeds for each pixel, each seed paints its tile
 * over its own oriented square, row by row, keeping the nearer seed where squares overlap (a
 * distance buffer holds each claimed pixel's nearest so far). `free` is how many free pixels the
 * field has: should a square miss any, the nearest seed around takes them. Then the chips join
 * their neighbours (`CHIP`). Runs in the engine's WebAssembly (`assembly/story-rings.ts`) on
 * `labels` in place. Seed `s` must be tile `first + s`, as
 * `ringSeeds` numbers them.
 */
export function assignNearest(labels: Uint16Array, field: Field, seeds: RingSeed[], first: number, free: number): void {
  const { width, offset } = STORY_LAYOUT;
  const { from, to, left, right } = field;
  const count = seeds.length;
  const at = addressOf(labels, 'story-labels-input');
  const packed = packSeeds(seeds);
  const mixed = addressOf(field.mixed, 'story-mixed-input');
  const distance = scratch('story-distance', Float32Array, (right - left) * (to - from)).byteOffset;
  const area = scratch('story-area', Int32Array, count).byteOffset;
  const within = scratch('story-within', Uint8Array, count).byteOffset;
  const spans = scratch('story-free-spans', Int32Array, 2 * (to - from)).byteOffset;
  const reach = REACH * SPACING;
  const claimed = assignSquares(
    at,
    width,
    offset,
    from,
    to,
    left,
    right,
    mixed,
    packed,
    count,
    first,
    reach,
    distance,
    area,
    within,
    spans,
  );
  if (claimed < free) {
    const columns = Math.ceil(width / SPACING) + 4;
    const buckets = (Math.ceil(STORY_LAYOUT.height / SPACING) + BUCKET_MARGIN) * columns;
    const starts = scratch('story-bucket-starts', Int32Array, buckets + 1).byteOffset;
    const members = scratch('story-bucket-members', Int32Array, count).byteOffset;
    fillUnreached(
      at,
      width,
      offset,
      from,
      to,
      left,
      right,
      packed,
      count,
      first,
      SPACING,
      columns,
      buckets,
      starts,
      members,
    );
  }
  const votes = scratch('story-votes', Int32Array, count).byteOffset;
  const order = scratch('story-vote-order', Int32Array, count).byteOffset;
  mergeChips(
    at,
    width,
    offset,
    from,
    to,
    left,
    right,
    packed,
    count,
    first,
    reach,
    CHIP * SPACING * SPACING,
    area,
    within,
    votes,
    order,
  );
  copyBack(labels, at);
}

/**
 * Rows of buckets beyond the canvas's own for `fillUnreached`: two before its first, as the keys
 * count them, and four each side for its search.
 */
const BUCKET_MARGIN = 12;
/** Doubles per packed seed: x, y, cos, sin. */
const SEED_DOUBLES = 4;

/** The seeds as the WebAssembly reads them, packed in a scratch array; returns its address. */
function packSeeds(seeds: RingSeed[]): number {
  const packed = scratch('story-seeds', Float64Array, seeds.length * SEED_DOUBLES);
  for (let s = 0, i = 0; s < seeds.length; s++, i += SEED_DOUBLES) {
    const { x, y, cos, sin } = seeds[s] as RingSeed;
    packed[i] = x;
    packed[i + 1] = y;
    packed[i + 2] = cos;
    packed[i + 3] = sin;
  }
  return packed.byteOffset;
}

/** The story's canvas width and offset, then the field's rows and columns. */
type FieldBounds = [width: number, offset: number, from: number, to: number, left: number, right: number];

const assignSquares =
  wasmFunction<
    (
      labels: number,
      ...rest: [
        ...FieldBounds,
        mixed: number,
        seeds: number,
        count: number,
        first: number,
        reach: number,
        distance: number,
        area: number,
        within: number,
        spans: number,
      ]
    ) => number
  >('storyAssignSquares');
const mergeChips =
  wasmFunction<
    (
      labels: number,
      ...rest: [
        ...FieldBounds,
        seeds: number,
        count: number,
        first: number,
        reach: number,
        chip: number,
        area: number,
        within: number,
        votes: number,
        order: number,
      ]
    ) => void
  >('storyMergeChips');
const fillUnreached =
  wasmFunction<
    (
      labels: number,
      ...rest: [
        ...FieldBounds,
        seeds: number,
        count: number,
        first: number,
        spacing: number,
        columns: number,
        buckets: number,
        starts: number,
        members: number,
      ]
    ) => void
  >('storyFillUnreached');
