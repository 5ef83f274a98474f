/**
 * What the tessellation measures: how well a pixel fits a tile, by position in tile spacings
 * (the size map's metric), CIELAB colour and the person mask. Shared by the clustering at half
 * resolution and the joints redrawn at full resolution.
 */

/** Colour distance (ΔE) that weighs as much as one tile spacing: larger means more regular tiles. */
export const COMPACTNESS = 18;
/** Weight of a full person/background mismatch, in squared tile spacings. */
export const MASK_WEIGHT = 4;

/** The photo under the artwork at a reduced resolution (half or a quarter of the artwork's). */
export interface WorkingImage {
  width: number;
  height: number;
  lab: Float32Array;
  mask: Float32Array;
  /** 1 / (tile spacing in half-resolution pixels)². */
  inverseSpacing2: Float32Array;
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
  };
}
