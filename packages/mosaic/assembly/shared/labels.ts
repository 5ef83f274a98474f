/** The label of a pixel no tile holds: the largest 16-bit label (`NO_TILE` in `src/refine.ts` reads it). */
export const NO_TILE: i32 = 0xffff;
/** The label of a story field's pixel no tile holds yet (`FREE` in `src/story-rings.ts`). */
export const FREE: i32 = NO_TILE;
