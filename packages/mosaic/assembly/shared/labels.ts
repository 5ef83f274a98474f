/** The label of a pixel no tile holds yet (`FREE` in `src/story-rings.ts`). */
export const FREE: i32 = 0xffff;
