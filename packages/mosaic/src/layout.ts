import { ARTWORK } from '@selfie-mosaic/contract';

/**
 * Where things sit on the 1080×1350 artwork. The mosaic fills the whole canvas; the campaign frame
 * is painted over its border and a band at the bottom carries the wordmark.
 */
export const LAYOUT = {
  width: ARTWORK.width,
  height: ARTWORK.height,
  /** Frame border width on the top and sides. */
  border: 28,
  /** Height of the wordmark band at the bottom, frame included. */
  band: 96,
  /** Target face width (cheek to cheek) as a share of the canvas width. */
  faceWidth: 0.36,
  /** Where the face centre (between eyes and mouth) sits, as a share of width and height. */
  faceCentreX: 0.5,
  faceCentreY: 0.4,
} as const;
