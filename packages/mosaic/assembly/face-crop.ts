/**
 * The face networks' input sampling (`src/face-crop.ts`): an affine map of the image, bilinear,
 * averaged over k × k points per output pixel. Double precision in the reference's order, so both
 * write the same bits: two output pixels at a time, one in each lane, each lane adding up its own
 * reads in the reference's order.
 */

/** One pixel's red, green and blue sums while the scalar reads add to them. */
let red: f64 = 0;
let green: f64 = 0;
let blue: f64 = 0;

/**
 * Fills `out` (`outWidth`×`outHeight` RGB floats, the k² reads' sum × `weight` + `offset`) with
 * the image (`width`×`height` RGB at `data`) read at (`ox`, `oy`) + u·(`ux`, `uy`) + v·(`vx`, `vy`)
 * (pixel centres at +0.5). Outside the image reads black.
 */
export function sampleAffineLoop(
  data: usize,
  width: i32,
  height: i32,
  outWidth: i32,
  outHeight: i32,
  out: usize,
  weight: f64,
  offset: f64,
  ox: f64,
  oy: f64,
  ux: f64,
  uy: f64,
  vx: f64,
  vy: f64,
  k: i32,
): void {
  const lastX = <f64>(width - 1);
  const lastY = <f64>(height - 1);
  const row = <usize>(width * 3);
  const points = <f64>k;
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  let o = out;
  for (let v = 0; v < outHeight; v++) {
    let u = 0;
    for (; u + 2 <= outWidth; u += 2, o += 24) {
      let r = zero;
      let g = zero;
      let b = zero;
      const columns = f64x2.replace_lane(f64x2.splat(<f64>u), 1, <f64>(u + 1));
      for (let j = 0; j < k; j++) {
        const fv = <f64>v + (<f64>j + 0.5) / points;
        const rowX = fv * vx;
        const rowY = fv * vy;
        for (let i = 0; i < k; i++) {
          const fu = f64x2.add(columns, f64x2.splat((<f64>i + 0.5) / points));
          const x = f64x2.sub(
            f64x2.add(f64x2.add(f64x2.splat(ox), f64x2.mul(fu, f64x2.splat(ux))), f64x2.splat(rowX)),
            f64x2.splat(0.5),
          );
          const y = f64x2.sub(
            f64x2.add(f64x2.add(f64x2.splat(oy), f64x2.mul(fu, f64x2.splat(uy))), f64x2.splat(rowY)),
            f64x2.splat(0.5),
          );
          const x0 = f64x2.floor(x);
          const y0 = f64x2.floor(y);
          const ax = f64x2.sub(x, x0);
          const ay = f64x2.sub(y, y0);
          const x00 = f64x2.extract_lane(x0, 0);
          const y00 = f64x2.extract_lane(y0, 0);
          const x01 = f64x2.extract_lane(x0, 1);
          const y01 = f64x2.extract_lane(y0, 1);
          if (inside(x00, y00, lastX, lastY) && inside(x01, y01, lastX, lastY)) {
            const top = f64x2.sub(one, ay);
            const left = f64x2.sub(one, ax);
            const w00 = f64x2.mul(top, left);
            const w01 = f64x2.mul(top, ax);
            const w10 = f64x2.mul(ay, left);
            const w11 = f64x2.mul(ay, ax);
            const p0 = data + <usize>((<i32>y00 * width + <i32>x00) * 3);
            const p1 = data + <usize>((<i32>y01 * width + <i32>x01) * 3);
            // Both reads' upper and lower pairs of pixels, six bytes each of eight loaded.
            const upper = v128.load64_lane(p1, v128.load64_zero(p0), 1);
            const lower = v128.load64_lane(p1 + row, v128.load64_zero(p0 + row), 1);
            r = f64x2.add(r, f64x2.mul(w00, pair(upper, 0)));
            g = f64x2.add(g, f64x2.mul(w00, pair(upper, 1)));
            b = f64x2.add(b, f64x2.mul(w00, pair(upper, 2)));
            r = f64x2.add(r, f64x2.mul(w01, pair(upper, 3)));
            g = f64x2.add(g, f64x2.mul(w01, pair(upper, 4)));
            b = f64x2.add(b, f64x2.mul(w01, pair(upper, 5)));
            r = f64x2.add(r, f64x2.mul(w10, pair(lower, 0)));
            g = f64x2.add(g, f64x2.mul(w10, pair(lower, 1)));
            b = f64x2.add(b, f64x2.mul(w10, pair(lower, 2)));
            r = f64x2.add(r, f64x2.mul(w11, pair(lower, 3)));
            g = f64x2.add(g, f64x2.mul(w11, pair(lower, 4)));
            b = f64x2.add(b, f64x2.mul(w11, pair(lower, 5)));
            continue;
          }
          // A read near or beyond the image's edge: each lane on its own, as the reference reads it.
          red = f64x2.extract_lane(r, 0);
          green = f64x2.extract_lane(g, 0);
          blue = f64x2.extract_lane(b, 0);
          read(data, width, height, row, x00, y00, f64x2.extract_lane(ax, 0), f64x2.extract_lane(ay, 0));
          const redLow = red;
          const greenLow = green;
          const blueLow = blue;
          red = f64x2.extract_lane(r, 1);
          green = f64x2.extract_lane(g, 1);
          blue = f64x2.extract_lane(b, 1);
          read(data, width, height, row, x01, y01, f64x2.extract_lane(ax, 1), f64x2.extract_lane(ay, 1));
          r = f64x2.replace_lane(f64x2.splat(redLow), 1, red);
          g = f64x2.replace_lane(f64x2.splat(greenLow), 1, green);
          b = f64x2.replace_lane(f64x2.splat(blueLow), 1, blue);
        }
      }
      const weights = f64x2.splat(weight);
      const offsets = f64x2.splat(offset);
      const rs = f64x2.add(f64x2.mul(r, weights), offsets);
      const gs = f64x2.add(f64x2.mul(g, weights), offsets);
      const bs = f64x2.add(f64x2.mul(b, weights), offsets);
      store<f32>(o, <f32>f64x2.extract_lane(rs, 0));
      store<f32>(o, <f32>f64x2.extract_lane(gs, 0), 4);
      store<f32>(o, <f32>f64x2.extract_lane(bs, 0), 8);
      store<f32>(o, <f32>f64x2.extract_lane(rs, 1), 12);
      store<f32>(o, <f32>f64x2.extract_lane(gs, 1), 16);
      store<f32>(o, <f32>f64x2.extract_lane(bs, 1), 20);
    }
    for (; u < outWidth; u++, o += 12) {
      red = 0;
      green = 0;
      blue = 0;
      for (let j = 0; j < k; j++) {
        const fv = <f64>v + (<f64>j + 0.5) / points;
        const rowX = fv * vx;
        const rowY = fv * vy;
        for (let i = 0; i < k; i++) {
          const fu = <f64>u + (<f64>i + 0.5) / points;
          const x = ox + fu * ux + rowX - 0.5;
          const y = oy + fu * uy + rowY - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          read(data, width, height, row, x0, y0, x - x0, y - y0);
        }
      }
      store<f32>(o, <f32>(red * weight + offset));
      store<f32>(o, <f32>(green * weight + offset), 4);
      store<f32>(o, <f32>(blue * weight + offset), 8);
    }
  }
}

function inside(x0: f64, y0: f64, lastX: f64, lastY: f64): bool {
  return x0 >= 0 && y0 >= 0 && x0 < lastX && y0 < lastY;
}

/** Byte `at` (of six) of both lanes' loaded pixels, as two doubles. */
function pair(bytes: v128, at: u8): v128 {
  // Byte `at` of the low half and of the high half into the two low 32-bit lanes, the rest zero.
  const spread = i8x16.swizzle(bytes, i8x16(at, -1, -1, -1, at + 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
  return f64x2.convert_low_i32x4_s(spread);
}

/** One bilinear read at (x0 + ax, y0 + ay) added to `red`, `green`, `blue`, in the reference's order. */
function read(data: usize, width: i32, height: i32, row: usize, x0: f64, y0: f64, ax: f64, ay: f64): void {
  const lastX = <f64>(width - 1);
  const lastY = <f64>(height - 1);
  if (inside(x0, y0, lastX, lastY)) {
    // All four neighbours inside: no test per neighbour (the crop's and the square's usual case).
    const top = 1 - ay;
    const w00 = top * (1 - ax);
    const w01 = top * ax;
    const w10 = ay * (1 - ax);
    const w11 = ay * ax;
    const p = data + <usize>((<i32>y0 * width + <i32>x0) * 3);
    const q = p + row;
    red += w00 * <f64>load<u8>(p);
    green += w00 * <f64>load<u8>(p, 1);
    blue += w00 * <f64>load<u8>(p, 2);
    red += w01 * <f64>load<u8>(p, 3);
    green += w01 * <f64>load<u8>(p, 4);
    blue += w01 * <f64>load<u8>(p, 5);
    red += w10 * <f64>load<u8>(q);
    green += w10 * <f64>load<u8>(q, 1);
    blue += w10 * <f64>load<u8>(q, 2);
    red += w11 * <f64>load<u8>(q, 3);
    green += w11 * <f64>load<u8>(q, 4);
    blue += w11 * <f64>load<u8>(q, 5);
    return;
  }
  // The four neighbours, each black when outside the image.
  for (let dy = 0; dy < 2; dy++) {
    const yy = y0 + <f64>dy;
    if (yy < 0 || yy >= <f64>height) continue;
    const wy = dy ? ay : 1 - ay;
    for (let dx = 0; dx < 2; dx++) {
      const xx = x0 + <f64>dx;
      if (xx < 0 || xx >= <f64>width) continue;
      const w = wy * (dx ? ax : 1 - ax);
      const p = data + <usize>((<i32>yy * width + <i32>xx) * 3);
      red += w * <f64>load<u8>(p);
      green += w * <f64>load<u8>(p, 1);
      blue += w * <f64>load<u8>(p, 2);
    }
  }
}
