/**
 * What the tessellation measures: how well a pixel fits a tile, by position, CIELAB colour and
 * the person mask. Position counts in the tile's own frame, turned along its row and scaled by
 * its size, and by the larger of the two offsets (Chebyshev, L∞): the pixels equally far from a
 * centre form a square aligned with the row, so tiles come out as square cut stones laid along
 * their rows (Hausner 2001, "Simulating decorative mosaics"). Shared by the clustering at half
 * resolution and the joints redrawn at full resolution.
 */

/**
 * Beyond a tile's square on both axes (a corner's diagonal region, where neither side's line
 * holds) the distance grows by this much more per spacing, so a pixel there goes to a tile whose
 * side it continues rather than to one whose corner it would round off.
 */
export const CORNER = 1;
/** Colour distance (ΔE) that weighs as much as one tile spacing: larger means more regular tiles. */
export const COMPACTNESS = 16;
/**
 * Stones from this size (artwork pixels) up, the body's and the face's broad parts, weigh colour
 * half as much (ΔE 32 for a spacing): their sides then run straighter (rectangularity +0.005 to
 * +0.01 per photo), while the fine stones of the eyes, brows, nose and lips keep following the
 * features' edges, which is what holds the likeness.
 */
export const BROAD_FROM = 12;
const BROAD_COMPACTNESS = 32;

/** The colour term's weight for a tile of `size` artwork pixels: the background ignores colour. */
export function colourWeight(person: boolean, size: number): number {
  if (!person) return 0;
  const compactness = size >= BROAD_FROM ? BROAD_COMPACTNESS : COMPACTNESS;
  return 1 / (compactness * compactness);
}
/** Weight of a full person/background mismatch, in squared tile spacings. */
export const MASK_WEIGHT = 4;

/** The photo under the artwork at half the artwork's resolution. */
export interface WorkingImage {
  width: number;
  height: number;
  rgb: Uint8Array;
  mask: Float32Array;
  /** CIELAB at a quarter of the artwork's resolution: each value covers 2×2 pixels here. */
  lab: Float32Array;
  labWidth: number;
}

/** Each tile's centre: position in half-resolution pixels, mean colour and person share. */
export interface Centres {
  x: Float32Array;
  y: Float32Array;
  l: Float32Array;
  a: Float32Array;
  b: Float32Array;
  m: Float32Array;
  /** See `colourWeight`: 0 for the background, whose colour is the pattern's. */
  colourWeight: Float32Array;
  /** The row's direction (unit vector) and 1 / the tile's size, in half-resolution pixels. */
  cos: Float32Array;
  sin: Float32Array;
  inverseSize: Float32Array;
}

export function createCentres(count: number): Centres {
  return {
    x: new Float32Array(count),
    y: new Float32Array(count),
    l: new Float32Array(count),
    a: new Float32Array(count),
    b: new Float32Array(count),
    m: new Float32Array(count),
    colourWeight: new Float32Array(count),
    cos: new Float32Array(count),
    sin: new Float32Array(count),
    inverseSize: new Float32Array(count),
  };
}
