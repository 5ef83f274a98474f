/**
 * What the tessellation measures: how well a pixel fits a tile, by position, CIELAB colour and
 * the person mask. Position counts in the tile's own frame, turned along its row and scaled by
 * its size, and by the larger of the two offsets (Chebyshev, L∞): the pixels equally far from a
 * centre form a square aligned with the row, so tiles come out as square cut stones laid along
 * their rows (Hausner 2001, "Simulating decorative mosaics"). Shared by the clustering at half
 * resolution and the joints redrawn at full resolution.
 */

/** Colour distance (ΔE) that weighs as much as one tile spacing: larger means more regular tiles. */
export const COMPACTNESS = 16;
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
  /** 1 / COMPACTNESS² for the visitor's tiles; 0 for the background, whose colour is the pattern's. */
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
