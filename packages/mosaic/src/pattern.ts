import type { Point } from './geometry.js';

/**
 * The campaign background: concentric rows of tesserae around the face, in bands of the pattern's
 * deep tones, with an accent ring and alternating rays — an opus-style halo rather than the room.
 * Pattern colours are ordered deep → light → accent in the campaign's art (`pattern` of each variant).
 */
const RING_WIDTH = 64;
const RAYS = 32;
/** Pattern index per ring, repeating outward: deep tones, an accent ring, then a light ring. */
const ACCENT = -1;
const LIGHT = 3;
const RINGS = [2, 1, 0, ACCENT, LIGHT, 0, 1, 2, 1];

/**
 * `quiet`: the tile lies beside the visitor. The accent ring passes the jaw and neck at the face's size, and
 * its cream and gold (or the light ring) right beside the skin read as the photo's own wall showing through;
 * there the ring yields to the deepest tone, so the halo stops short of the figure.
 */
export function patternIndex(x: number, y: number, centre: Point, size: number, quiet = false): number {
  const dx = x - centre.x;
  const dy = y - centre.y;
  const ring = Math.floor(Math.hypot(dx, dy) / RING_WIDTH);
  const ray = Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * RAYS);
  const ringBand = RINGS[ring % RINGS.length] as number;
  const band = quiet && (ringBand === ACCENT || ringBand === LIGHT) ? 0 : ringBand;
  if (band === ACCENT) return ray % 2 === 0 ? size - 1 : size - 2;
  if (band === LIGHT) return LIGHT;
  // Alternate rays step to the neighbouring deep tone, so the rings read as a quiet sunburst.
  return ray % 2 === 0 ? band : band === 1 ? 2 : 1;
}
