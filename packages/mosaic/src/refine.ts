import { type Window, wholeImage } from './geometry.js';
import { addressOf, scratch } from './scratch.js';
import { type Centres, CORNER, MASK_WEIGHT, type WorkingImage } from './slic-metric.js';
import { wasmConstant, wasmFunction } from './wasm.js';

/** The label of artwork pixels outside the part cut into tiles: the largest 16-bit label (`assembly/shared/labels.ts`). */
export const NO_TILE = wasmConstant('noTile');

/**
 * Doubles per tile in the packed centres: x, y, person share, row cos and sin / size, and room to
 * start every tile on a cache line.
 */
const STRIDE = 8;

const packLoop =
  wasmFunction<
    (
      count: number,
      xs: number,
      ys: number,
      shares: number,
      cosines: number,
      sines: number,
      inverseSizes: number,
      packed: number,
    ) => void
  >('packRefineCentres');

/** The centres interleaved, so one tile's fields share a cache line. */
function pack(c: Centres): Float64Array {
  const count = c.x.length;
  const packed = scratch('packed-centres', Float64Array, count * STRIDE);
  packLoop(
    count,
    addressOf(c.x, 'refine-centre-x'),
    addressOf(c.y, 'refine-centre-y'),
    addressOf(c.m, 'refine-centre-m'),
    addressOf(c.cos, 'refine-centre-cos'),
    addressOf(c.sin, 'refine-centre-sin'),
    addressOf(c.inverseSize, 'refine-centre-inverse-size'),
    packed.byteOffset,
  );
  return packed;
}

const refineLoop =
  wasmFunction<
    (
      halfLabels: number,
      mask: number,
      centres: number,
      halfWidth: number,
      x0: number,
      y0: number,
      x1: number,
      y1: number,
      labels: number,
      width: number,
      corner: number,
      maskWeight: number,
      joints: number,
    ) => void
  >('refineLabels');

/**
 * Upsamples the labels. Where the four nearest half-resolution labels disagree, the artwork pixel
 * takes the tile that fits it best by position (in the tile's own square metric) and person mask,
 * so joints run as the straight sides of cut stones instead of 2-pixel stairs. Colour chose the
 * tiles at half resolution already; here it would only fray the sides.
 *
 * Each artwork pixel of a block lies ¼ half-pixel from its centre and chooses between the block's
 * own tile and the neighbours beside and above or below it on its side; ties go to the earlier
 * candidate, so to the block's own tile first. A tile touching the block only at its corner is
 * left out: weighing it too cost a quarter more here and moved a few pixels in a thousand, with
 * rectangularity and orientation all but unchanged.
 *
 * Only the half-resolution `region` is upsampled (its edges count as the image's); the artwork
 * pixels outside it are NO_TILE.
 */
export function refineToFull(
  half: WorkingImage,
  halfLabels: Int32Array,
  c: Centres,
  width: number,
  height: number,
  region: Window = wholeImage(half.width, half.height),
): Uint16Array {
  // A block's pixels past an odd width or height fall outside the artwork: the JavaScript's
  // typed array dropped them, here they land in room left for them beyond its end.
  const odd = width % 2 === 1 || height % 2 === 1;
  const labels = odd
    ? scratch('labels', Uint16Array, width * (height + 1) + 1).subarray(0, width * height)
    : scratch('labels', Uint16Array, width * height);
  refineLoop(
    addressOf(halfLabels, 'refine-half-labels'),
    addressOf(half.mask, 'refine-mask'),
    pack(c).byteOffset,
    half.width,
    region.left,
    region.top,
    region.right,
    region.bottom,
    labels.byteOffset,
    width,
    CORNER,
    MASK_WEIGHT,
    scratch('refine-joints', Int32Array, (region.right - region.left) * (region.bottom - region.top)).byteOffset,
  );
  // After the blocks: with an odd width a row's last block reaches into the next row's first pixel.
  fillOutside(labels, width, height, region, NO_TILE);
  return labels;
}

/** Sets the artwork pixels outside the half-resolution `region` to `value`. */
export function fillOutside(labels: Uint16Array, width: number, height: number, region: Window, value: number): void {
  const top = Math.min(height, region.top * 2);
  const bottom = Math.min(height, region.bottom * 2);
  const left = Math.min(width, region.left * 2);
  const right = Math.min(width, region.right * 2);
  labels.fill(value, 0, top * width);
  for (let y = top; y < bottom; y++) {
    labels.fill(value, y * width, y * width + left);
    labels.fill(value, y * width + right, (y + 1) * width);
  }
  labels.fill(value, bottom * width, height * width);
}
