import type { Point } from './face.js';

/**
 * The campaign background: concentric rows of tesserae around the face, in bands of the pattern's
 * deep tones, with an accent ring and alternating rays — an opus-style halo rather than the room.
 * Pattern colours are ordered deep → light → accent in `ART_VARIANTS`.
 */
const RING_WIDTH = 68;
const RAYS = 28;
/** Pattern index per ring, repeating outward; -1 marks the accent ring. */
const RINGS = [2, 1, 0, 1, -1, 2, 0, 1];

export function patternIndex(x: number, y: number, centre: Point, size: number): number {
  const dx = x - centre.x;
  const dy = y - centre.y;
  const ring = Math.floor(Math.hypot(dx, dy) / RING_WIDTH);
  const ray = Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * RAYS);
  const band = RINGS[ring % RINGS.length] as number;
  if (band === -1) return ray % 2 === 0 ? size - 1 : size - 2;
  // Every other ray shifts one tone, so the rings read as a sunburst.
  return ray % 2 === 0 ? band : Math.min(size - 3, band + 1 + (ring % 2));
}
