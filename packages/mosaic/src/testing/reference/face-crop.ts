import type { RgbImage } from '../../decode.js';
import { type Affine, cropAffine, type FaceCrop, readsPerSide, squareAffine } from '../../face-crop.js';

/*
 * The JavaScript the engine's WebAssembly `sampleAffineLoop` replaced (with the two samplers that
 * call it), kept as the reference its test compares with.
 */

/** `sampleCrop` (`face-crop.ts`) through the reference loop. */
export function sampleCrop(
  image: RgbImage,
  crop: FaceCrop,
  side: number,
  out: Float32Array,
  scale: number,
  offset: number,
): Float32Array {
  return sampleAffine(image, side, side, out, scale, offset, cropAffine(crop, side));
}

/** `sampleSquare` (`face-crop.ts`) through the reference loop. */
export function sampleSquare(image: RgbImage, side: number, out: Float32Array, scale: number, offset: number) {
  return sampleAffine(image, side, side, out, scale, offset, squareAffine(image, side));
}

function sampleAffine(
  { data, width, height }: RgbImage,
  outWidth: number,
  outHeight: number,
  out: Float32Array,
  scale: number,
  offset: number,
  { ox, oy, ux, uy, vx, vy }: Affine,
): Float32Array {
  const k = readsPerSide({ ox, oy, ux, uy, vx, vy });
  const weight = scale / (k * k);
  const lastX = width - 1;
  const lastY = height - 1;
  const row = width * 3;
  // Where the k points sit across a pixel, and each row's share of the affine map, worked out once.
  const within = Float64Array.from({ length: k }, (_, i) => (i + 0.5) / k);
  let o = 0;
  for (let v = 0; v < outHeight; v++) {
    for (let u = 0; u < outWidth; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < k; j++) {
        const fv = v + (within[j] as number);
        const rowX = fv * vx;
        const rowY = fv * vy;
        for (let i = 0; i < k; i++) {
          const fu = u + (within[i] as number);
          const x = ox + fu * ux + rowX - 0.5;
          const y = oy + fu * uy + rowY - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const ax = x - x0;
          const ay = y - y0;
          if (x0 >= 0 && y0 >= 0 && x0 < lastX && y0 < lastY) {
            // All four neighbours inside: no test per neighbour (the crop's and the square's usual case).
            const top = 1 - ay;
            const w00 = top * (1 - ax);
            const w01 = top * ax;
            const w10 = ay * (1 - ax);
            const w11 = ay * ax;
            const p = (y0 * width + x0) * 3;
            const q = p + row;
            r += w00 * (data[p] as number);
            g += w00 * (data[p + 1] as number);
            b += w00 * (data[p + 2] as number);
            r += w01 * (data[p + 3] as number);
            g += w01 * (data[p + 4] as number);
            b += w01 * (data[p + 5] as number);
            r += w10 * (data[q] as number);
            g += w10 * (data[q + 1] as number);
            b += w10 * (data[q + 2] as number);
            r += w11 * (data[q + 3] as number);
            g += w11 * (data[q + 4] as number);
            b += w11 * (data[q + 5] as number);
            continue;
          }
          // The four neighbours, each black when outside the image.
          for (let dy = 0; dy < 2; dy++) {
            const yy = y0 + dy;
            if (yy < 0 || yy >= height) continue;
            const wy = dy ? ay : 1 - ay;
            for (let dx = 0; dx < 2; dx++) {
              const xx = x0 + dx;
              if (xx < 0 || xx >= width) continue;
              const w = wy * (dx ? ax : 1 - ax);
              const p = (yy * width + xx) * 3;
              r += w * (data[p] as number);
              g += w * (data[p + 1] as number);
              b += w * (data[p + 2] as number);
            }
          }
        }
      }
      out[o++] = r * weight + offset;
      out[o++] = g * weight + offset;
      out[o++] = b * weight + offset;
    }
  }
  return out;
}
