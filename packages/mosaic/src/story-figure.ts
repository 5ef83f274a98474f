import { TILE_SIZES } from './detail.js';
import type { Point, Window } from './geometry.js';
import { LANDMARK_GROUPS, type Landmarks } from './landmarks.js';
import { LAYOUT, POST_WINDOW } from './layout.js';
import { nearFigure } from './paint.js';
import { NO_TILE } from './refine.js';
import type { Tiles } from './superpixels.js';

/**
 * Which of the 4:5's tiles the story keeps. Its window is the 4:5's and more above and below, so
 * the 4:5's tiles run on into the story's own, except where the 4:5's window cut them: the tiles it
 * cuts at its top and bottom would end in a straight line across the story, and go. The visitor's
 * figure usually runs off the 4:5's bottom (shoulders) and sometimes its top (hair): in the story
 * it ends instead on a curve, as a bust ends on its base, so the figure's tiles beyond the curve go
 * too, with the outline row and the background stones beside them (those the 4:5 laid in quiet
 * tones, and all near the part of the figure that goes); the story lays its own in their place, so
 * the outline row and the quiet tones follow the figure's new edge. The curve is an ellipse around the
 * face centre: below it a circle, concentric with the pattern's rings, so the row of stones under
 * the bust follows it; above, only when the figure reaches the 4:5's top, a flatter arch, which
 * takes off less hair than a circle would. The face, with a margin, always lies inside it.
 */

const SPACING = TILE_SIZES.background;
/** The base's lowest point lies this far above the 4:5 window's bottom, the arch's top this far below its top. */
const BASE_MARGIN = SPACING;
const ARCH_MARGIN = SPACING;
/** The curve keeps at least this far from the face's box. */
const FACE_MARGIN = SPACING;

/** The curve the story's figure ends on: an ellipse around `centre`, its vertical half-axis above and below. */
interface FigureCurve {
  centre: Point;
  /** Horizontal half-axis. */
  across: number;
  /** Half-axis above the centre (infinite when the figure keeps its top) and below it. */
  above: number;
  below: number;
}

function insideCurve({ centre, across, above, below }: FigureCurve, x: number, y: number): boolean {
  const u = (x - centre.x) / across;
  const dy = y - centre.y;
  const v = dy / (dy < 0 ? above : below);
  return u * u + v * v <= 1;
}

/**
 * 1 for each of the 4:5's tiles the story keeps; `face` is the face's box on the 4:5, `colours`
 * each tile's palette colour there and `pattern` the pattern's colour at a point away from the
 * figure.
 */
export function keptTiles(
  tiles: Tiles,
  centre: Point,
  face: Window,
  colours: Uint8Array,
  pattern: (x: number, y: number) => number,
): Uint8Array {
  const { count, labels, cut, person } = tiles;
  const dropped = new Uint8Array(count);
  let figureAtTop = false;
  const dropRows = (from: number, to: number, top: boolean) => {
    for (let y = Math.max(0, from); y < to; y++) {
      for (let x = cut.left, i = y * LAYOUT.width + cut.left; x < cut.right; x++, i++) {
        const t = labels[i] as number;
        if (t === NO_TILE) continue;
        dropped[t] = 1;
        if (top && (person[t] as number) >= 0.5) figureAtTop = true;
      }
    }
  };
  dropRows(cut.top, POST_WINDOW.top, true);
  dropRows(POST_WINDOW.bottom, cut.bottom, false);
  const curve = figureCurve(centre, face, figureAtTop);
  const beyond = (t: number) => !insideCurve(curve, tiles.x[t] as number, tiles.y[t] as number);
  // Beside the figure's part that goes, the background is laid anew: the outline row and the
  // quiet tones follow the figure's new edge.
  const nearDropped = nearFigure(count, tiles.x, tiles.y, (t) => (person[t] as number) >= 0.5 && beyond(t), {
    left: 0,
    top: 0,
    right: LAYOUT.width,
    bottom: LAYOUT.height,
  });
  const keep = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    if (dropped[t] === 1) continue;
    if (!beyond(t)) {
      keep[t] = 1;
      continue;
    }
    const x = tiles.x[t] as number;
    const y = tiles.y[t] as number;
    const beside =
      (person[t] as number) >= 0.5 || tiles.outline[t] === 1 || colours[t] !== pattern(x, y) || nearDropped(x, y);
    keep[t] = beside ? 0 : 1;
  }
  return keep;
}

function figureCurve(centre: Point, face: Window, arch: boolean): FigureCurve {
  const below = Math.max(POST_WINDOW.bottom - BASE_MARGIN - centre.y, face.bottom + FACE_MARGIN - centre.y);
  const above = arch
    ? Math.max(centre.y - POST_WINDOW.top - ARCH_MARGIN, centre.y - face.top + FACE_MARGIN)
    : Number.POSITIVE_INFINITY;
  // Wide enough for the face's corners, and a circle below at least.
  let across = below;
  for (const x of [face.left - FACE_MARGIN, face.right + FACE_MARGIN]) {
    for (const y of [face.top - FACE_MARGIN, face.bottom + FACE_MARGIN]) {
      const dy = y - centre.y;
      const v = dy / (dy < 0 ? above : below);
      if (v * v < 1) across = Math.max(across, Math.abs(x - centre.x) / Math.sqrt(1 - v * v));
    }
  }
  return { centre, across, above, below };
}

/**
 * Each background ring's phase as the 4:5 laid it, read back from the ring stones the story keeps:
 * the value `forEachRingPlace` takes from `random()` for that ring (inner first), or NaN where the
 * story keeps too few of its stones to tell. Laid at these phases, the story's stones continue the
 * 4:5's rings at the same pitch, where they would have lain had the 4:5 been taller.
 */
export function ringPhases(tiles: Tiles, keep: Uint8Array, centre: Point, rings: number): Float64Array {
  const sumCos = new Float64Array(rings);
  const sumSin = new Float64Array(rings);
  const counts = new Uint32Array(rings);
  for (let t = 0; t < tiles.count; t++) {
    if (keep[t] === 0 || (tiles.person[t] as number) >= 0.5 || tiles.outline[t] === 1) continue;
    if (tiles.spacing[t] !== SPACING) continue;
    const dx = (tiles.x[t] as number) - centre.x;
    const dy = (tiles.y[t] as number) - centre.y;
    const distance = Math.hypot(dx, dy);
    const ring = Math.round(distance / SPACING - 0.75);
    if (ring < 0 || ring >= rings || Math.abs(distance - (ring + 0.75) * SPACING) > 0.3 * SPACING) continue;
    const steps = stepsOf(ring);
    const turn = Math.atan2(dy, dx) * steps;
    sumCos[ring] = (sumCos[ring] as number) + Math.cos(turn);
    sumSin[ring] = (sumSin[ring] as number) + Math.sin(turn);
    counts[ring] = (counts[ring] as number) + 1;
  }
  const phases = new Float64Array(rings).fill(Number.NaN);
  for (let ring = 0; ring < rings; ring++) {
    const n = counts[ring] as number;
    const c = sumCos[ring] as number;
    const s = sumSin[ring] as number;
    // A handful of stones that agree: holes and stones pushed aside by the outline row do not.
    if (n < MIN_STONES || Math.hypot(c, s) < AGREEMENT * n) continue;
    const steps = stepsOf(ring);
    const phase = Math.atan2(s, c) / (2 * Math.PI) / steps;
    phases[ring] = phase < 0 ? phase + 1 / steps : phase;
  }
  return phases;
}

const MIN_STONES = 3;
const AGREEMENT = 0.6;

/** Stones on ring `ring`, as `forEachRingPlace` lays them. */
function stepsOf(ring: number): number {
  const radius = SPACING * (0.75 + ring);
  return Math.max(6, Math.round((2 * Math.PI * radius) / SPACING));
}

/** The box around every landmark of a face. */
export function landmarkBounds(landmarks: Landmarks): Window {
  const box = {
    left: Number.POSITIVE_INFINITY,
    top: Number.POSITIVE_INFINITY,
    right: Number.NEGATIVE_INFINITY,
    bottom: Number.NEGATIVE_INFINITY,
  };
  for (const name of LANDMARK_GROUPS) {
    const group = landmarks[name];
    for (let i = 0; i < group.length; i += 2) {
      box.left = Math.min(box.left, group[i] as number);
      box.right = Math.max(box.right, group[i] as number);
      box.top = Math.min(box.top, group[i + 1] as number);
      box.bottom = Math.max(box.bottom, group[i + 1] as number);
    }
  }
  return box;
}
