/** Four singles of a vector as two pairs of doubles and back, for loops that work in double precision. */

/** The low two singles of four as doubles. */
export function lo(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

/** The high two singles of four as doubles. */
export function hi(v: v128): v128 {
  return f64x2.promote_low_f32x4(i64x2.shuffle(v, v, 1, 1));
}

/** Two pairs of doubles as four singles, in order. */
export function joined(low: v128, high: v128): v128 {
  return i64x2.shuffle(f32x4.demote_f64x2_zero(low), f32x4.demote_f64x2_zero(high), 0, 2);
}
