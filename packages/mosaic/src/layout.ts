import { ARTWORK, STORY_ARTWORK } from '@selfie-mosaic/contract';

/**
 * Where things sit on the 1080×1350 artwork. The mosaic fills the whole canvas; the campaign frame
 * is painted over its border and a band at the bottom carries the wordmark (the story's own
 * layout follows below).
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

/** The part of the 4:5 artwork its frame leaves open, right and bottom exclusive. */
export const POST_WINDOW = {
  left: LAYOUT.border,
  top: LAYOUT.border,
  right: LAYOUT.width - LAYOUT.border,
  bottom: LAYOUT.height - LAYOUT.band,
} as const;

/**
 * The 9:16 story version: the 4:5 canvas sits `offset` pixels down the story's canvas inside one
 * window with the 4:5's border all round, and the mosaic and its pattern run through the whole of
 * it. The wordmark is set on a plaque inside the mosaic, centred above the bottom `safeMargin`
 * rows, which stories cover with their own controls; with the face centred high in the 4:5 (`faceCentreY`), the face
 * stays clear of the top ones.
 */
export const STORY_LAYOUT = {
  width: STORY_ARTWORK.width,
  height: STORY_ARTWORK.height,
  safeMargin: STORY_ARTWORK.safeMargin,
  /** A multiple of 16, so the JPEG's blocks fall alike on the 4:5's pixels in both pictures. */
  offset: 272,
} as const;

/**
 * The story's wordmark plaque (a tabula ansata, as Roman mosaics carry their inscriptions): at
 * most `maxWidth` of the window's width, handles included, so it reads as an object laid in the
 * mosaic rather than a band across it; its foot `gap` above the bottom safe margin, one ring of
 * background stones.
 */
export const STORY_PLAQUE = {
  maxWidth: 0.42,
  gap: 34,
} as const;
