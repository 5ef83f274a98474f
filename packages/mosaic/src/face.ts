import { dominantFace, faceLuma, isFaceTooSmall, isTooDark, meanLuma as sharedMeanLuma } from '@selfie-mosaic/contract';
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

/** The mean of a landmark group's points. */
export function centroid(group: Float32Array): Point {
  let x = 0;
  let y = 0;
  for (let i = 0; i < group.length; i += 2) {
    x += group[i] as number;
    y += group[i + 1] as number;
  }
  const count = group.length / 2;
  return { x: x / count, y: y / count };
}

/** Mean luma of an RGB image or of a box in it (the rule's own measure, from the contract). */
export function meanLuma(image: RgbImage, box?: Box): number {
  return sharedMeanLuma({ ...image, channels: 3 }, box);
}

/**
 * Picks the subject among the faces detected in `image` or refuses: no face, several faces of
 * similar size, a face too small or too dark. `workingScale` converts the image's pixels to the
 * working resolution, where the size limits are set.
 */
export function chooseFace(faces: DetectedFace[], image: RgbImage, workingScale: number): FaceGeometry {
  if (faces.length === 0) throw new MosaicRefusal('no_face');
  const subject = dominantFace(faces.map((face) => face.box));
  if (subject === undefined) throw new MosaicRefusal('multiple_faces', `${faces.length} faces of similar size`);
  const main = faces[subject] as DetectedFace;
  const geometry = geometryOf(main.landmarks);
  const { width } = geometry;
  if (isFaceTooSmall({ faceWidth: width, longSide: Math.max(image.width, image.height), photoScale: workingScale })) {
    throw new MosaicRefusal('face_too_small', `face ${Math.round(width * workingScale)} px wide`);
  }
  const luma = faceLuma({ ...image, channels: 3 }, main.box);
  if (isTooDark({ faceLuma: luma })) throw new MosaicRefusal('too_dark', `face luma ${Math.round(luma)}`);
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
