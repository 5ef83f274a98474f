import { F_RANGE, F_STEPS, F_TABLE, LINEAR } from '../../colour.js';

/** The JavaScript the engine's WebAssembly `rgbToLab` replaced, kept as the reference its test compares with. */

/**
 * Converts an interleaved RGB image to interleaved Lab floats, f() interpolated from its table
 * inline. 8-bit sRGB maps into [0, 1] on every axis, so the table needs no clamping.
 */
export function imageToLab(rgb: Uint8Array, lab = new Float32Array(rgb.length)): Float32Array {
  const scale = F_STEPS / F_RANGE;
  for (let i = 0; i < rgb.length; i += 3) {
    const lr = LINEAR[rgb[i] as number] as number;
    const lg = LINEAR[rgb[i + 1] as number] as number;
    const lb = LINEAR[rgb[i + 2] as number] as number;
    const px = ((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047) * scale;
    const py = (0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb) * scale;
    const pz = ((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883) * scale;
    const ix = px | 0;
    const iy = py | 0;
    const iz = pz | 0;
    const x0 = F_TABLE[ix] as number;
    const y0 = F_TABLE[iy] as number;
    const z0 = F_TABLE[iz] as number;
    const fx = x0 + ((F_TABLE[ix + 1] as number) - x0) * (px - ix);
    const fy = y0 + ((F_TABLE[iy + 1] as number) - y0) * (py - iy);
    const fz = z0 + ((F_TABLE[iz + 1] as number) - z0) * (pz - iz);
    lab[i] = 116 * fy - 16;
    lab[i + 1] = 500 * (fx - fy);
    lab[i + 2] = 200 * (fy - fz);
  }
  return lab;
}
