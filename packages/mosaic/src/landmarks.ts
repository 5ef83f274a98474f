import type { Box, Point } from './geometry.js';

/**
 * The engine's own view of a detected face: named groups of landmarks and a box. Only the face
 * model's wrapper (`models.ts`) knows which detector made them and how it numbers its points.
 */

/**
 * A face's landmarks by group, each group as x, y pairs in some image's pixels. `right` and
 * `left` are the person's own (in an unmirrored photo their right eye is on the image's left).
 */
export interface Landmarks {
  /** Eye contours. */
  rightEye: Float32Array;
  leftEye: Float32Array;
  /** Brows, along their arch. */
  rightBrow: Float32Array;
  leftBrow: Float32Array;
  /** The outer edge of the lips. */
  lips: Float32Array;
  /** Four points: the mouth's right and left corners, the middle of the upper and lower lip. */
  mouth: Float32Array;
  /** Bridge, tip and wings of the nose. */
  nose: Float32Array;
  /** The face outline: forehead, temples, cheeks and jaw. */
  outline: Float32Array;
  /** Two points where the face is widest: the right and left cheek. */
  cheeks: Float32Array;
}

export type LandmarkGroup = keyof Landmarks;

export const LANDMARK_GROUPS: readonly LandmarkGroup[] = [
  'rightEye',
  'leftEye',
  'rightBrow',
  'leftBrow',
  'lips',
  'mouth',
  'nose',
  'outline',
  'cheeks',
];

/** One face as the detector found it, in the coordinates of the image the caller asked about. */
export interface DetectedFace {
  box: Box;
  landmarks: Landmarks;
}

/** A group's points, in order. */
export function pointsOf(group: Float32Array): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < group.length; i += 2) points.push({ x: group[i] as number, y: group[i + 1] as number });
  return points;
}

/** Every landmark moved by `move` (into another image's coordinates). */
export function mapLandmarks(landmarks: Landmarks, move: (p: Point) => Point): Landmarks {
  const moved = {} as Landmarks;
  for (const name of LANDMARK_GROUPS) {
    const group = landmarks[name];
    const out = new Float32Array(group.length);
    for (let i = 0; i < group.length; i += 2) {
      const p = move({ x: group[i] as number, y: group[i + 1] as number });
      out[i] = p.x;
      out[i + 1] = p.y;
    }
    moved[name] = out;
  }
  return moved;
}
