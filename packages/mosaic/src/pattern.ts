import type { Point, Window } from './geometry.js';

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

/**
 * The places of the background's stones: concentric rings `spacing` apart around `centre`, each
 * ring's stones `spacing` apart along it from a random phase (one `random()` per ring, inner first).
 * `visit` gets each place and its row direction (the ring's tangent) until the rings pass beyond
 * `bounds` (the places may reach half a spacing beyond it); the story lays the 4:5's rings on, so their stones line up.
 */
export function forEachRingPlace(
  centre: Point,
  spacing: number,
  bounds: Window,
  random: () => number,
  visit: (x: number, y: number, cos: number, sin: number) => void,
): void {
  const { left, top, right, bottom } = bounds;
  const farthest = Math.hypot(Math.max(centre.x - left, right - centre.x), Math.max(centre.y - top, bottom - centre.y));
  for (let r = spacing * 0.75; r < farthest + spacing; r += spacing) {
    const steps = Math.max(6, Math.round((2 * Math.PI * r) / spacing));
    const phase = random() * 2 * Math.PI;
    for (let s = 0; s < steps; s++) {
      const angle = phase + (s * 2 * Math.PI) / steps;
      const x = centre.x + r * Math.cos(angle);
      const y = centre.y + r * Math.sin(angle);
      if (x < left - spacing / 2 || x > right + spacing / 2 || y < top - spacing / 2 || y > bottom + spacing / 2)
        continue;
      visit(x, y, -Math.sin(angle), Math.cos(angle));
    }
  }
}
