/** sRGB ↔ CIELAB (D65), with a lookup table for the sRGB transfer curve since it runs per pixel. */

const LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const EPSILON = 216 / 24389;
const KAPPA = 24389 / 27;
function exactF(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : (KAPPA * t + 16) / 116;
}
/** CIELAB's f() tabulated on [0, 1.1] and interpolated: cube roots dominate otherwise. */
const F_STEPS = 4096;
const F_RANGE = 1.1;
const F_TABLE = new Float32Array(F_STEPS + 2);
for (let i = 0; i < F_TABLE.length; i++) F_TABLE[i] = exactF((i / F_STEPS) * F_RANGE);
function f(t: number): number {
  const position = Math.min(F_RANGE, Math.max(0, t)) * (F_STEPS / F_RANGE);
  const i = position | 0;
  const low = F_TABLE[i] as number;
  return low + ((F_TABLE[i + 1] as number) - low) * (position - i);
}

/** Writes L*, a*, b* of an 8-bit sRGB colour into `out` at `offset`. */
export function rgbToLab(r: number, g: number, b: number, out: Float32Array, offset: number): void {
  const lr = LINEAR[r] as number;
  const lg = LINEAR[g] as number;
  const lb = LINEAR[b] as number;
  const fx = f((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047);
  const fy = f(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
  const fz = f((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883);
  out[offset] = 116 * fy - 16;
  out[offset + 1] = 500 * (fx - fy);
  out[offset + 2] = 200 * (fy - fz);
}

/** Converts an interleaved RGB image to interleaved Lab floats. */
export function imageToLab(rgb: Uint8Array, lab = new Float32Array(rgb.length)): Float32Array {
  for (let i = 0; i < rgb.length; i += 3) {
    rgbToLab(rgb[i] as number, rgb[i + 1] as number, rgb[i + 2] as number, lab, i);
  }
  return lab;
}

/** Parses `#rrggbb`. */
export function parseHex(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new TypeError(`Expected a #rrggbb colour for palette entry but received ${hex}`);
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
}

export function createPalette(hexes: readonly string[]): Palette {
  const rgb = new Uint8Array(hexes.length * 3);
  const lab = new Float32Array(hexes.length * 3);
  const chroma = new Float32Array(hexes.length);
  hexes.forEach((hex, i) => {
    const [r, g, b] = parseHex(hex);
    rgb.set([r, g, b], i * 3);
    rgbToLab(r, g, b, lab, i * 3);
    chroma[i] = Math.hypot(lab[i * 3 + 1] as number, lab[i * 3 + 2] as number);
  });
  return { size: hexes.length, rgb, lab, chroma };
}

/**
 * Index of the palette colour closest to (L, a, b) by ΔE76, with lightness counted `lightWeight`
 * times and any chroma beyond the target's counted again: a muted tone never jumps to a loud one.
 */
export function nearestColour(palette: Palette, l: number, a: number, b: number, lightWeight = 1): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lab = palette.lab;
  const chroma = Math.hypot(a, b);
  for (let i = 0, o = 0; i < palette.size; i++, o += 3) {
    const dl = l - (lab[o] as number);
    const da = a - (lab[o + 1] as number);
    const db = b - (lab[o + 2] as number);
    const excess = Math.max(0, (palette.chroma[i] as number) - chroma);
    const distance = lightWeight * dl * dl + da * da + db * db + excess * excess;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return best;
}
