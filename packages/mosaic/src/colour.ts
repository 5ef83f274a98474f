import { check } from './checks.js';
import { addressOf, engineTable, writeThrough } from './scratch.js';
import { wasmFunction } from './wasm.js';

/** sRGB ↔ CIELAB (D65), with a lookup table for the sRGB transfer curve since it runs per pixel. */

/** The tables live in the engine's memory, where its conversion loop reads them. */
export const LINEAR = engineTable('srgb-linear', 256, (i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

const EPSILON = 216 / 24389;
const KAPPA = 24389 / 27;
function exactF(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : (KAPPA * t + 16) / 116;
}
/** CIELAB's f() tabulated on [0, 1.1] and interpolated: cube roots dominate otherwise. */
export const F_STEPS = 4096;
export const F_RANGE = 1.1;
export const F_TABLE = engineTable('cielab-f', F_STEPS + 2, (i) => exactF((i / F_STEPS) * F_RANGE));

const labLoop =
  wasmFunction<(rgb: number, pixels: number, lab: number, linear: number, fTable: number, scale: number) => void>(
    'rgbToLab',
  );

/**
 * Converts an interleaved RGB image to interleaved Lab floats, f() interpolated from its table.
 * 8-bit sRGB maps into [0, 1] on every axis, so the table needs no clamping.
 */
export function imageToLab(rgb: Uint8Array, lab = new Float32Array(rgb.length)): Float32Array {
  const pixels = Math.floor(rgb.length / 3);
  return writeThrough(lab, 'lab-output', (out) =>
    labLoop(addressOf(rgb, 'lab-input'), pixels, out, LINEAR.byteOffset, F_TABLE.byteOffset, F_STEPS / F_RANGE),
  );
}

/** Parses `#rrggbb`. */
export function parseHex(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  check(match, 'palette entry', 'a #rrggbb colour', hex);
  return [
    Number.parseInt(match[1] as string, 16),
    Number.parseInt(match[2] as string, 16),
    Number.parseInt(match[3] as string, 16),
  ];
}

/** A palette as RGB bytes and Lab floats, ready for nearest-colour search. */
export interface Palette {
  size: number;
  rgb: Uint8Array;
  lab: Float32Array;
  /** CIELAB chroma of each colour. */
  chroma: Float32Array;
  /** Colour indices in order of lightness, and their L*: the search starts at the target's lightness. */
  byLightness: Uint16Array;
  sortedLightness: Float32Array;
}

export function createPalette(hexes: readonly string[]): Palette {
  const rgb = new Uint8Array(hexes.length * 3);
  const lab = new Float32Array(hexes.length * 3);
  const chroma = new Float32Array(hexes.length);
  hexes.forEach((hex, i) => {
    rgb.set(parseHex(hex), i * 3);
  });
  imageToLab(rgb, lab);
  for (let i = 0; i < hexes.length; i++) chroma[i] = Math.hypot(lab[i * 3 + 1] as number, lab[i * 3 + 2] as number);
  const order = hexes.map((_, i) => i).sort((p, q) => (lab[p * 3] as number) - (lab[q * 3] as number) || p - q);
  const byLightness = Uint16Array.from(order);
  const sortedLightness = Float32Array.from(order, (i) => lab[i * 3] as number);
  return { size: hexes.length, rgb, lab, chroma, byLightness, sortedLightness };
}

/**
 * Index of the palette colour closest to (L, a, b) by ΔE76, with lightness counted `lightWeight`
 * times and any chroma beyond the target's counted again: a muted tone never jumps to a loud one.
 *
 * The search walks outwards from the target's lightness in both directions and stops each way once
 * the lightness difference alone costs more than the best match so far, so it looks at a few
 * colours instead of all of them; among equally close colours the lowest index wins, as in a
 * plain scan.
 */
export function nearestColour(palette: Palette, l: number, a: number, b: number, lightWeight = 1): number {
  const { byLightness, sortedLightness } = palette;
  const chroma = Math.hypot(a, b);
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  // First position whose lightness is at least l.
  let low = 0;
  let high = palette.size;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sortedLightness[middle] as number) < l) low = middle + 1;
    else high = middle;
  }
  let up = low;
  let down = low - 1;
  while (up < palette.size || down >= 0) {
    const upGap = up < palette.size ? (sortedLightness[up] as number) - l : Number.POSITIVE_INFINITY;
    const downGap = down >= 0 ? l - (sortedLightness[down] as number) : Number.POSITIVE_INFINITY;
    const gap = Math.min(upGap, downGap);
    if (lightWeight * gap * gap > bestDistance) break;
    const i = upGap <= downGap ? (byLightness[up++] as number) : (byLightness[down--] as number);
    const distance = colourDistance(palette, i, l, a, b, chroma, lightWeight);
    if (distance < bestDistance || (distance === bestDistance && i < best)) {
      bestDistance = distance;
      best = i;
    }
  }
  return best;
}

/** The distance nearestColour minimises, to palette colour `i`. */
function colourDistance(
  palette: Palette,
  i: number,
  l: number,
  a: number,
  b: number,
  chroma: number,
  lightWeight: number,
): number {
  const o = i * 3;
  const dl = l - (palette.lab[o] as number);
  const da = a - (palette.lab[o + 1] as number);
  const db = b - (palette.lab[o + 2] as number);
  const excess = Math.max(0, (palette.chroma[i] as number) - chroma);
  return lightWeight * dl * dl + da * da + db * db + excess * excess;
}
