import type { RgbImage } from './decode.js';
import type { Box, Point } from './geometry.js';
import { type DetectedFace, type Landmarks, pointsOf } from './landmarks.js';
import { MosaicRefusal } from './refusal.js';

/** The chosen face in some image's pixel coordinates. */
export interface FaceGeometry {
  /** Eye centres as they appear in the image: `left` has the smaller x. */
  leftEye: Point;
  rightEye: Point;
  mouth: Point;
  /** Cheek-to-cheek width. */
  width: number;
  landmarks: Landmarks;
}

function centroid(group: Float32Array): Point {
  let x = 0;
  let y = 0;
  for (let i = 0; i < group.length; i += 2) {
    x += group[i] as number;
    y += group[i + 1] as number;
  }
  const count = group.length / 2;
  return { x: x / count, y: y / count };
}

/** Limits that decide when a photo cannot make a good portrait. */
export const FACE_LIMITS = {
  /** A second face at least this share of the largest face's area means there is no clear subject. */
  dominance: 0.45,
  /** Smallest face width in working pixels: below it the features are mush once enlarged. */
  minWidth: 72,
  /** Smallest face width as a share of the photo's long side. */
  minShare: 0.06,
  /** Mean luma (0–255) of the face below which it is too dark to read. */
  minFaceLuma: 45,
  /** Mean luma of the whole photo below which nothing can be seen. */
  minImageLuma: 22,
} as const;

/** Mean Rec. 601 luma of an RGB image, sampled on a sparse grid (the photo is large). */
export function meanLuma(image: RgbImage, box?: Box): number {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(image.width, Math.ceil(box ? box.x + box.width : image.width));
  const y1 = Math.min(image.height, Math.ceil(box ? box.y + box.height : image.height));
  const step = Math.max(1, Math.floor(Math.min(x1 - x0, y1 - y0) / 64));
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * image.width + x) * 3;
      sum +=
        0.299 * (image.data[i] as number) +
        0.587 * (image.data[i + 1] as number) +
        0.114 * (image.data[i + 2] as number);
      count++;
    }
  }
  return count ? sum / count : 0;
}

/**
 * Picks the subject among the faces detected in `image` or refuses: no face, several faces of
 * similar size, a face too small or too dark. `workingScale` converts the image's pixels to the
 * working resolution, where the size limits are set.
 */
export function chooseFace(faces: DetectedFace[], image: RgbImage, workingScale: number): FaceGeometry {
  if (faces.length === 0) throw new MosaicRefusal('no_face');
  const area = (face: DetectedFace) => face.box.width * face.box.height;
  const [main, second] = [...faces].sort((a, b) => area(b) - area(a)) as [DetectedFace, DetectedFace | undefined];
  if (second && area(second) >= FACE_LIMITS.dominance * area(main)) {
    throw new MosaicRefusal('multiple_faces', `${faces.length} faces of similar size`);
  }
  const geometry = geometryOf(main.landmarks);
  const { width } = geometry;
  const workingWidth = width * workingScale;
  if (workingWidth < FACE_LIMITS.minWidth || width < FACE_LIMITS.minShare * Math.max(image.width, image.height)) {
    throw new MosaicRefusal('face_too_small', `face ${Math.round(workingWidth)} px wide`);
  }
  const { x, y, width: w, height: h } = main.box;
  const faceLuma = meanLuma(image, { x: x + w * 0.2, y: y + h * 0.2, width: w * 0.6, height: h * 0.6 });
  if (faceLuma < FACE_LIMITS.minFaceLuma) throw new MosaicRefusal('too_dark', `face luma ${Math.round(faceLuma)}`);
  return geometry;
}

/** Eyes, mouth and width of a face from its landmarks. */
export function geometryOf(landmarks: Landmarks): FaceGeometry {
  const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  // Eye centres from the whole eye contours: steadier than the two corners when the head turns.
  const eyeA = centroid(landmarks.rightEye);
  const eyeB = centroid(landmarks.leftEye);
  const [leftEye, rightEye] = eyeA.x <= eyeB.x ? [eyeA, eyeB] : [eyeB, eyeA];
  const [rightCorner, leftCorner, upperLip, lowerLip] = pointsOf(landmarks.mouth) as [Point, Point, Point, Point];
  const mouth = mid(mid(rightCorner, leftCorner), mid(upperLip, lowerLip));
  const [rightCheek, leftCheek] = pointsOf(landmarks.cheeks) as [Point, Point];
  const width = Math.hypot(leftCheek.x - rightCheek.x, leftCheek.y - rightCheek.y);
  return { leftEye, rightEye, mouth, width, landmarks };
}
