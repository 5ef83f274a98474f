/** Guide grid cells are this many artwork pixels wide (`GUIDE_CELL` in `src/guides.ts`). */
export const CELL: f64 = 4;

/** The centre of grid cell `g` along either axis, in artwork pixels (`cellCentre`). */
export function centre(g: i32): f64 {
  return <f64>g * CELL + CELL / 2;
}
