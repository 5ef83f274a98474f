/** Math.round as JavaScript has it: halves go up. */
export function roundHalfUp(v: f64): f64 {
  const down = Math.floor(v);
  return v - down >= 0.5 ? down + 1 : down;
}
