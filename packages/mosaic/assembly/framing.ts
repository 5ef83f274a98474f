/**
 * The framing's loops (`src/framing.ts`): the bilinear warp of the photo into the artwork's frame
 * and the photo's coverage of it. Double precision throughout, in the reference's order, so both
 * write the same bits.
 */

/** The flat grey painted where the framed portrait reaches beyond the photo. */
const OUTSIDE_GREY: u8 = 128;
/** The person weight is 0 up to this many artwork pixels inside the photo's edge… */
const COVERAGE_OFFSET: f64 = -6;
/** …and reaches 1 this many pixels further in. */
const COVERAGE_FADE: f64 = 48;

/**
 * The photo (`sw`×`sh` RGB at `src`) sampled bilinearly into `out` (`width`×`height` RGB): output
 * pixel (x, y)'s centre reads the photo at (`cx`, `cy`) + the turn (`ux`, `uy`) applied to its
 * offset from (`tx`, `ty`). Beyond the photo the flat grey; within a pixel of its edge the edge repeats.
 */
export function warpPhoto(
  src: usize,
  sw: i32,
  sh: i32,
  out: usize,
  width: i32,
  height: i32,
  tx: f64,
  ty: f64,
  ux: f64,
  uy: f64,
  cx: f64,
  cy: f64,
): void {
  const stride = <usize>(sw * 3);
  const maxX = <f64>(sw - 1);
  const maxY = <f64>(sh - 1);
  const lastX = maxX - 1e-3;
  const lastY = maxY - 1e-3;
  const half = f32x4.splat(0.5);
  const one = f64x2.splat(1);
  const doubt = f32x4.splat(ROUNDING_DOUBT);
  const trust = f32x4.splat(1 - ROUNDING_DOUBT);
  const zero = i32x4.splat(0);
  let o = out;
  for (let y = 0; y < height; y++) {
    const dy = <f64>y + 0.5 - ty;
    const dx = 0.5 - tx;
    let sx = cx + dx * ux - dy * uy - 0.5;
    let sy = cy + dx * uy + dy * ux - 0.5;
    for (let x = 0; x < width; x++, sx += ux, sy += uy, o += 3) {
      let fx = sx;
      let fy = sy;
      if (!(sx >= 0 && sy >= 0 && sx <= lastX && sy <= lastY)) {
        if (sx < -1 || sy < -1 || sx > maxX + 1 || sy > maxY + 1) {
          store<u8>(o, OUTSIDE_GREY);
          store<u8>(o, OUTSIDE_GREY, 1);
          store<u8>(o, OUTSIDE_GREY, 2);
          continue;
        }
        fx = min<f64>(lastX, max<f64>(0, sx));
        fy = min<f64>(lastY, max<f64>(0, sy));
      }
      // Both coordinates at once: their whole parts (the floor, as they are not negative) and fractions.
      const at = f64x2.replace_lane(f64x2.splat(fx), 1, fy);
      const whole = f64x2.floor(at);
      const fraction2 = f64x2.sub(at, whole);
      const corner = i32x4.trunc_sat_f64x2_s_zero(whole);
      const x0 = i32x4.extract_lane(corner, 0);
      const y0 = i32x4.extract_lane(corner, 1);
      const rest = f64x2.sub(one, fraction2);
      // [1 − ax, ax] times 1 − ay and times ay: w00, w10 and w01, w11, as the reference multiplies them.
      const across = f64x2.shuffle(rest, fraction2, 0, 2);
      const upper = f64x2.mul(across, f64x2.shuffle(rest, rest, 1, 1));
      const lower = f64x2.mul(across, f64x2.shuffle(fraction2, fraction2, 1, 1));
      const weights = i64x2.shuffle(f32x4.demote_f64x2_zero(upper), f32x4.demote_f64x2_zero(lower), 0, 2);
      const p = src + <usize>((y0 * sw + x0) * 3);
      const q = p + stride;
      // The weights sum to 1, so values stay within 0–255 and +0.5 then truncation rounds. The
      // three channels are blended at once in single precision, whose truncation agrees with the
      // reference's double-precision one except within ROUNDING_DOUBT of a whole number, where
      // the pixel is blended again as the reference does.
      const sum = f32x4.add(
        f32x4.add(
          f32x4.add(
            f32x4.add(
              f32x4.mul(texel(p), i32x4.shuffle(weights, weights, 0, 0, 0, 0)),
              f32x4.mul(texel(p + 3), i32x4.shuffle(weights, weights, 1, 1, 1, 1)),
            ),
            f32x4.mul(texel(q), i32x4.shuffle(weights, weights, 2, 2, 2, 2)),
          ),
          f32x4.mul(texel(q + 3), i32x4.shuffle(weights, weights, 3, 3, 3, 3)),
        ),
        half,
      );
      const fraction = f32x4.sub(sum, f32x4.floor(sum));
      const doubtful = v128.or(f32x4.lt(fraction, doubt), f32x4.gt(fraction, trust));
      if (i32x4.bitmask(doubtful) & RGB_LANES) {
        const w00 = f64x2.extract_lane(upper, 0);
        const w10 = f64x2.extract_lane(upper, 1);
        const w01 = f64x2.extract_lane(lower, 0);
        const w11 = f64x2.extract_lane(lower, 1);
        store<u8>(o, channel(p, q, w00, w10, w01, w11, 0));
        store<u8>(o, channel(p, q, w00, w10, w01, w11, 1), 1);
        store<u8>(o, channel(p, q, w00, w10, w01, w11, 2), 2);
        continue;
      }
      const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(i32x4.trunc_sat_f32x4_s(sum), zero), zero);
      v128.store16_lane(o, bytes, 0);
      v128.store8_lane(o, bytes, 2, 2);
    }
  }
}

/**
 * How near a whole number a single-precision blend (+0.5) may come before it is redone in double
 * precision: its error from the double-precision one is below 4 × 255 × 2⁻²³ + 4 × 2⁻¹⁶ (weights
 * and products rounded to single, four roundings of sums under 256), well inside this.
 */
const ROUNDING_DOUBT: f32 = 1.0 / 256;
/** The bitmask lanes of red, green and blue (the fourth lane reads the next pixel's red). */
const RGB_LANES: i32 = 0b0111;

/** Pixel `p`'s red, green and blue (and the next byte) as four singles. */
function texel(p: usize): v128 {
  return f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p))));
}

function channel(p: usize, q: usize, w00: f64, w10: f64, w01: f64, w11: f64, c: usize): u8 {
  const v =
    <f64>load<u8>(p + c) * w00 +
    <f64>load<u8>(p + c + 3) * w10 +
    <f64>load<u8>(q + c) * w01 +
    <f64>load<u8>(q + c + 3) * w11 +
    0.5;
  return <u8>(<i32>v);
}

/**
 * `map` (`ow`×`oh` floats, artwork size divided by the reduction) times how far inside the photo
 * (`width`×`height`) each pixel lies, in place. (`ux`, `uy`): photo pixels per map pixel along x;
 * `scale`: artwork pixels per photo pixel.
 */
export function fadeBeyondPhotoLoop(
  map: usize,
  ow: i32,
  oh: i32,
  tx: f64,
  ty: f64,
  ux: f64,
  uy: f64,
  sourceX: f64,
  sourceY: f64,
  width: f64,
  height: f64,
  scale: f64,
): void {
  let o = map;
  for (let y = 0; y < oh; y++) {
    const dy = <f64>y + 0.5 - ty;
    const dx = 0.5 - tx;
    let sx = sourceX + dx * ux - dy * uy;
    let sy = sourceY + dx * uy + dy * ux;
    for (let x = 0; x < ow; x++, o += 4, sx += ux, sy += uy) {
      const inside = lesser(lesser(sx, width - sx), lesser(sy, height - sy)) * scale;
      const share = (inside - COVERAGE_OFFSET) / COVERAGE_FADE;
      const t = lesser(1, share > 0 ? share : 0);
      if (t < 1) store<f32>(o, <f32>(<f64>load<f32>(o) * <f64>(<f32>(t * t * (3 - 2 * t)))));
    }
  }
}

/**
 * The smaller of two distances. A comparison is cheaper than `min`, which also orders NaNs and
 * signed zeros: none comes here but a zero, whose sign the fade's arithmetic then drops.
 */
function lesser(a: f64, b: f64): f64 {
  return a < b ? a : b;
}

// Read by `src/framing.ts`, so each is defined once.
export { COVERAGE_FADE as coverageFade, COVERAGE_OFFSET as coverageOffset };
