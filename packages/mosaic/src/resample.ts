import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import type { RgbImage } from './decode.js';
import { addressOf, scratch, writeThrough } from './scratch.js';
import { wasmFunction } from './wasm.js';

/** Resizes an RGB image with sharp (Lanczos), for the detector's and segmenter's small inputs. */
export async function resizeRgb(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
    limitInputPixels: UPLOAD_LIMITS.maxPixels,
  })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
}

const upsampleLoop =
  wasmFunction<
    (mask: number, mw: number, mh: number, width: number, height: number, out: number, columns: number) => void
  >('upsampleMaskLoop');
/** Bytes per output column of the resampling's table: two source columns (i32) and a weight (f64). */
const COLUMN_BYTES = 16;

/** Bilinear resampling of a single-channel 8-bit map into floats 0–1. */
export function upsampleMask(
  mask: Uint8Array,
  mw: number,
  mh: number,
  width: number,
  height: number,
  out = new Float32Array(width * height),
): Float32Array {
  // The model's mask comes from outside the engine's memory and is copied in.
  const columns = scratch('upsample-columns', Uint8Array, width * COLUMN_BYTES);
  return writeThrough(out, 'upsampled-mask', (target) =>
    upsampleLoop(addressOf(mask, 'upsample-input'), mw, mh, width, height, target, columns.byteOffset),
  );
}
