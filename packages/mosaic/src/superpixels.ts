import { imageToLab } from './colour.js';
import { enforceConnectivity } from './connectivity.js';
import { type Window, wholeImage } from './geometry.js';
import { NO_TILE, refineToFull } from './refine.js';
import { addressOf, scratch } from './scratch.js';
import type { Seeds } from './seeds.js';
import { BROAD_FROM, type Centres, CORNER, colourWeight, MASK_WEIGHT, type WorkingImage } from './slic-metric.js';
import { wasmConstant, wasmFunction } from './wasm.js';

export { NO_TILE } from './refine.js';
export type { WorkingImage } from './slic-metric.js';

/**
 * Seeds laid in rows grow into square tesserae: each pixel of the half-resolution image joins the
 * seed nearest by the tile-frame Chebyshev distance (see `slic-metric.ts`), CIELAB colour and the
 * person mask, searched SLIC-style in a window around each seed. Tile borders are then redrawn at
 * full resolution.
 */

/**
 * Search window (half its side) in tile spacings, along the image's axes. A tile's own rectangle
 * reaches 0.56 along its row and 0.5 across, 0.75 at its corner, which a window turned 45° just
 * misses; the settled stones (`settle.ts`) leave few places that far from every one. A pixel no
 * window reaches joins the tile beside it (`connectivity.ts`). A wider window let the stones reach deep
 * into their neighbours' corners and holes (less rectangular stones) and searched more pixels.
 */
export const WINDOW = 0.72;

export interface Tiles {
  count: number;
  /**
   * Tile index of every artwork pixel inside `cut` (a few thousand tiles: 16 bits are plenty),
   * NO_TILE outside it.
   */
  labels: Uint16Array;
  /** The part of the artwork cut into tiles, artwork pixels. */
  cut: Window;
  /** Mean person probability of each tile (0–1). */
  person: Float32Array;
  /** 1 for the background tiles of the row outlining the figure. */
  outline: Uint8Array;
  /** The seed each tile grew from: seeds are numbered in the order they were laid. */
  seed: Int32Array;
  /** 1 for the tiles of the rows laid first, along the guide lines (`Seeds.line`). */
  line: Uint8Array;
  /** Intended spacing of each tile in artwork pixels. */
  spacing: Float32Array;
  /** Centroid of each tile in artwork pixels. */
  x: Float32Array;
  y: Float32Array;
  /** Direction of each tile's row (unit vector): the tessera's long axis. */
  cos: Float32Array;
  sin: Float32Array;
  /** Mean CIELAB colour of the photo under each tile, interleaved. */
  lab: Float32Array;
}

const tileFieldsLoop =
  wasmFunction<
    (
      count: number,
      origin: number,
      sizes: number,
      outlines: number,
      lines: number,
      xs: number,
      ys: number,
      ls: number,
      as: number,
      bs: number,
      spacing: number,
      outline: number,
      line: number,
      x: number,
      y: number,
      lab: number,
    ) => void
  >('tileFields');

const splitLabLoop = wasmFunction<(lab: number, count: number, ls: number, as: number, bs: number) => void>('splitLab');

/**
 * The tiles of the seeds, cut from the artwork's part `within` only (default: all of it); the
 * seeds whose stones lie wholly outside it make no tile.
 */
export function buildTiles(
  half: WorkingImage,
  seeds: Seeds,
  width: number,
  height: number,
  within: Window = wholeImage(width, height),
): Tiles {
  const region = halfOf(within, half.width, half.height);
  const fields = seedFields(seeds);
  const raw = assign(half, seeds.count, centresOf(half, seeds, fields), region);
  const { labels: halfLabels, origin, count } = enforceConnectivity(raw, half.width, half.height, seeds, region);
  // Tiles are at least 7.5 px across, so a 1080×1350 artwork has far fewer than 65,535.
  if (count >= NO_TILE) throw new Error(`${count} tiles do not fit 16-bit labels`);
  const centres = measure(half, halfLabels, count, origin, fields, region);
  const labels = refineToFull(half, halfLabels, centres, width, height, region);
  const out = {
    spacing: scratch('tile-spacing', Float32Array, count),
    outline: scratch('tile-outline', Uint8Array, count),
    line: scratch('tile-line', Uint8Array, count),
    x: scratch('tile-x', Float32Array, count),
    y: scratch('tile-y', Float32Array, count),
    lab: scratch('tile-lab-out', Float32Array, count * 3),
  };
  tileFieldsLoop(
    count,
    addressOf(origin, 'tile-origin-copy'),
    fields.size,
    addressOf(seeds.outline, 'seed-outline'),
    addressOf(seeds.line, 'seed-line'),
    centres.x.byteOffset,
    centres.y.byteOffset,
    centres.l.byteOffset,
    centres.a.byteOffset,
    centres.b.byteOffset,
    out.spacing.byteOffset,
    out.outline.byteOffset,
    out.line.byteOffset,
    out.x.byteOffset,
    out.y.byteOffset,
    out.lab.byteOffset,
  );
  const cut = cutOf(region, width, height);
  return {
    count,
    labels,
    cut,
    // Copied out of the scratch arrays: the tiles outlive the next cut.
    person: centres.m.slice(),
    outline: out.outline.slice(),
    seed: origin,
    line: out.line.slice(),
    spacing: out.spacing.slice(),
    x: out.x.slice(),
    y: out.y.slice(),
    cos: centres.cos.slice(),
    sin: centres.sin.slice(),
    lab: out.lab.slice(),
  };
}

/** The artwork's pixels the half-resolution `region` covers, inside the `width`×`height` artwork. */
export function cutOf(region: Window, width: number, height: number): Window {
  return {
    left: region.left * 2,
    top: region.top * 2,
    right: Math.min(width, region.right * 2),
    bottom: Math.min(height, region.bottom * 2),
  };
}

/** The half-resolution pixels that cover the artwork's part `within`, inside the half image. */
export function halfOf({ left, top, right, bottom }: Window, width: number, height: number): Window {
  return {
    left: Math.max(0, Math.floor(left / 2)),
    top: Math.max(0, Math.floor(top / 2)),
    right: Math.min(width, Math.ceil(right / 2)),
    bottom: Math.min(height, Math.ceil(bottom / 2)),
  };
}

const quarterLoop =
  wasmFunction<
    (rgb: number, mask: number, width: number, height: number, quarterRgb: number, quarterMask: number) => void
  >('quarterMeans');

/**
 * The photo at a quarter of the artwork's resolution (2×2 means of the half-resolution colour and
 * person mask), in CIELAB, for the size map, the guides and the colour term of the tiles' growth.
 * Converting a quarter as many pixels to CIELAB costs a quarter as much, and a tile is at least
 * two quarter pixels across.
 */
export function quarterOf(
  rgb: Uint8Array,
  mask: Float32Array,
  width: number,
  height: number,
): { width: number; height: number; lab: Float32Array; mask: Float32Array } {
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const quarterRgb = scratch('quarter-rgb', Uint8Array, qw * qh * 3);
  const quarterMask = scratch('quarter-mask', Float32Array, qw * qh);
  quarterLoop(
    addressOf(rgb, 'quarter-input-rgb'),
    addressOf(mask, 'quarter-input-mask'),
    width,
    height,
    quarterRgb.byteOffset,
    quarterMask.byteOffset,
  );
  const lab = imageToLab(quarterRgb, scratch('quarter-lab', Float32Array, qw * qh * 3));
  return { width: qw, height: qh, lab, mask: quarterMask };
}

/** Floats per seed in the packed centres: x, y, L, a, b, person share, colour weight, cos, sin, 1 / size. */
const CENTRE_STRIDE = wasmConstant('centreStride');

const seedCentresLoop =
  wasmFunction<
    (
      count: number,
      xs: number,
      ys: number,
      sizes: number,
      person: number,
      cosines: number,
      sines: number,
      width: number,
      height: number,
      lab: number,
      labWidth: number,
      narrow: number,
      broad: number,
      broadFrom: number,
      centres: number,
    ) => void
  >('seedCentres');

/** The colour weights of the visitor's fine and broad stones (`colourWeight`). */
const NARROW_WEIGHT = colourWeight(true, 0);
const BROAD_WEIGHT = colourWeight(true, BROAD_FROM);

/** The addresses of the seeds' fields in the engine's memory, where its loops read them. */
type SeedFields = ReturnType<typeof seedFields>;

function seedFields(seeds: Seeds) {
  return {
    x: addressOf(seeds.x, 'seed-x'),
    y: addressOf(seeds.y, 'seed-y'),
    size: addressOf(seeds.size, 'seed-size'),
    person: addressOf(seeds.person, 'seed-person'),
    cos: addressOf(seeds.cos, 'seed-cos'),
    sin: addressOf(seeds.sin, 'seed-sin'),
  };
}

/**
 * Each seed as a centre, packed for the assignment: its place in half-resolution pixels, the
 * colour under it, person share, colour weight (the background becomes the campaign pattern, so
 * its tiles ignore the room's colours), row and 1 / size.
 */
function centresOf(half: WorkingImage, seeds: Seeds, fields: SeedFields): Float32Array {
  const c = scratch('seed-centres', Float32Array, seeds.count * CENTRE_STRIDE);
  seedCentresLoop(
    seeds.count,
    fields.x,
    fields.y,
    fields.size,
    fields.person,
    fields.cos,
    fields.sin,
    half.width,
    half.height,
    addressOf(half.lab, 'half-lab-copy'),
    half.labWidth,
    NARROW_WEIGHT,
    BROAD_WEIGHT,
    BROAD_FROM,
    c.byteOffset,
  );
  return c;
}

const assignLoop =
  wasmFunction<
    (
      centres: number,
      count: number,
      width: number,
      left: number,
      top: number,
      right: number,
      bottom: number,
      mask: number,
      lab: number,
      labWidth: number,
      labels: number,
      distance: number,
      pixels: number,
      window: number,
      corner: number,
      maskWeight: number,
    ) => void
  >('assignPixels');

/**
 * The assignment at half resolution: each pixel joins the centre nearest by the tile-frame
 * Chebyshev distance, person mask and, for the visitor's tiles, colour, so tiles stay square
 * along their rows and still keep to the photo's strong edges. Each centre searches the pixels
 * within WINDOW of its spacing, inside the region cut.
 */
function assign(half: WorkingImage, count: number, centres: Float32Array, region: Window): Int32Array {
  const { width, height } = half;
  const n = width * height;
  // Reset to no tile at an infinite distance by the loop.
  const labels = scratch('cluster-labels', Int32Array, n);
  const distance = scratch('cluster-distance', Float32Array, n);
  assignLoop(
    centres.byteOffset,
    count,
    width,
    region.left,
    region.top,
    region.right,
    region.bottom,
    addressOf(half.mask, 'half-mask-copy'),
    addressOf(half.lab, 'half-lab-copy'),
    half.labWidth,
    labels.byteOffset,
    distance.byteOffset,
    n,
    WINDOW,
    CORNER,
    MASK_WEIGHT,
  );
  return labels;
}

const sumLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      left: number,
      top: number,
      right: number,
      bottom: number,
      rgb: number,
      mask: number,
      sums: number,
    ) => void
  >('sumTiles');

/** Values per tile in the sums: pixels, Σx, Σy, Σr, Σg, Σb, Σperson. */
const SUMS = 7;

const tileCentresLoop =
  wasmFunction<
    (
      count: number,
      sums: number,
      origin: number,
      sizes: number,
      person: number,
      cosines: number,
      sines: number,
      narrow: number,
      broad: number,
      broadFrom: number,
      xs: number,
      ys: number,
      means: number,
      shares: number,
      weights: number,
      cosOut: number,
      sinOut: number,
      inverseSizes: number,
    ) => void
  >('tileCentres');

/** The tiles' centres in the engine's memory, where its loops write them: valid until the next cut. */
function scratchCentres(count: number): Centres {
  const field = (name: string) => scratch(`tile-centre-${name}`, Float32Array, count);
  return {
    x: field('x'),
    y: field('y'),
    l: field('l'),
    a: field('a'),
    b: field('b'),
    m: field('m'),
    colourWeight: field('colour-weight'),
    cos: field('cos'),
    sin: field('sin'),
    inverseSize: field('inverse-size'),
  };
}

function measure(
  half: WorkingImage,
  labels: Int32Array,
  count: number,
  origin: Int32Array,
  fields: SeedFields,
  { left, top, right, bottom }: Window,
): Centres {
  const sums = scratch('tile-sums', Float64Array, count * SUMS).fill(0);
  // Row by row in runs of one tile: the sums are added to the tile's once per run.
  sumLoop(
    addressOf(labels, 'measure-labels'),
    half.width,
    left,
    top,
    right,
    bottom,
    addressOf(half.rgb, 'half-rgb-copy'),
    addressOf(half.mask, 'half-mask-copy'),
    sums.byteOffset,
  );
  const c = scratchCentres(count);
  // Each tile's mean colour, averaged in sRGB and converted once per tile.
  const means = scratch('tile-means', Uint8Array, count * 3);
  tileCentresLoop(
    count,
    sums.byteOffset,
    addressOf(origin, 'tile-origin-copy'),
    fields.size,
    fields.person,
    fields.cos,
    fields.sin,
    NARROW_WEIGHT,
    BROAD_WEIGHT,
    BROAD_FROM,
    c.x.byteOffset,
    c.y.byteOffset,
    means.byteOffset,
    c.m.byteOffset,
    c.colourWeight.byteOffset,
    c.cos.byteOffset,
    c.sin.byteOffset,
    c.inverseSize.byteOffset,
  );
  const lab = imageToLab(means, scratch('tile-lab', Float32Array, count * 3));
  splitLabLoop(lab.byteOffset, count, c.l.byteOffset, c.a.byteOffset, c.b.byteOffset);
  return c;
}
