import type { RgbImage } from './decode.js';
import type { HumanFace } from './models.js';
import { MosaicRefusal } from './refusal.js';

export interface Point {
  x: number;
  y: number;
}

/** The chosen face in some image's pixel coordinates. */
export interface FaceGeometry {
  /** Eye centres as they appear in the image: `left` has the smaller x. */
  leftEye: Point;
  rightEye: Point;
  mouth: Point;
  /** Cheek-to-cheek width (FaceMesh points 234 and 454). */
  width: number;
  /** FaceMesh points as x, y pairs. */
  mesh: Float32Array;
}

/** FaceMesh indices (MediaPipe's canonical face mesh). */
const MESH = {
  mouthLeft: 61,
  mouthRight: 291,
  upperLip: 13,
  lowerLip: 14,
  cheekRight: 234,
  cheekLeft: 454,
} as const;

/** FaceMesh eye contours (16 points each). */
const EYE_CONTOURS = {
  right: [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246],
  left: [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466],
} as const;

function centroid(mesh: Float32Array, indices: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const i of indices) {
    x += mesh[i * 2] as number;
    y += mesh[i * 2 + 1] as number;
  }
  return { x: x / indices.length, y: y / indices.length };
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
export function meanLuma(image: RgbImage, box?: { x: number; y: number; w: number; h: number }): number {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(image.width, Math.ceil(box ? box.x + box.w : image.width));
  const y1 = Math.min(image.height, Math.ceil(box ? box.y + box.h : image.height));
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
export function chooseFace(faces: HumanFace[], image: RgbImage, workingScale: number): FaceGeometry {
  if (faces.length === 0) throw new MosaicRefusal('no_face');
  const bySize = [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const [main, second] = bySize as [HumanFace, HumanFace | undefined];
  if (second && second.box[2] * second.box[3] >= FACE_LIMITS.dominance * main.box[2] * main.box[3]) {
    throw new MosaicRefusal('multiple_faces', `${faces.length} faces of similar size`);
  }
  const geometry = geometryOf(meshOf(main));
  const { width } = geometry;
  const workingWidth = width * workingScale;
  if (workingWidth < FACE_LIMITS.minWidth || width < FACE_LIMITS.minShare * Math.max(image.width, image.height)) {
    throw new MosaicRefusal('face_too_small', `face ${Math.round(workingWidth)} px wide`);
  }
  const [bx, by, bw, bh] = main.box;
  const faceLuma = meanLuma(image, { x: bx + bw * 0.2, y: by + bh * 0.2, w: bw * 0.6, h: bh * 0.6 });
  if (faceLuma < FACE_LIMITS.minFaceLuma) throw new MosaicRefusal('too_dark', `face luma ${Math.round(faceLuma)}`);
  return geometry;
}

/** A detection's FaceMesh points as x, y pairs. */
export function meshOf(face: HumanFace): Float32Array {
  const mesh = new Float32Array(face.mesh.length * 2);
  face.mesh.forEach(([x, y], i) => {
    mesh[i * 2] = x;
    mesh[i * 2 + 1] = y;
  });
  return mesh;
}

/** Eyes, mouth and width of a face from its FaceMesh points. */
export function geometryOf(mesh: Float32Array): FaceGeometry {
  const at = (index: number): Point => ({ x: mesh[index * 2] as number, y: mesh[index * 2 + 1] as number });
  const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  // Eye centres from the whole eye contours: steadier than the two corners when the head turns.
  const eyeA = centroid(mesh, EYE_CONTOURS.right);
  const eyeB = centroid(mesh, EYE_CONTOURS.left);
  const [leftEye, rightEye] = eyeA.x <= eyeB.x ? [eyeA, eyeB] : [eyeB, eyeA];
  const mouth = mid(mid(at(MESH.mouthLeft), at(MESH.mouthRight)), mid(at(MESH.upperLip), at(MESH.lowerLip)));
  const width = Math.hypot(at(MESH.cheekLeft).x - at(MESH.cheekRight).x, at(MESH.cheekLeft).y - at(MESH.cheekRight).y);
  return { leftEye, rightEye, mouth, width, mesh };
}
