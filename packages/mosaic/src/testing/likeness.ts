import type { RenderDetails } from '../render.js';
import { descriptorDistance, type FaceReading, readFaces } from './face-api.js';
import { toRgb } from './images.js';

/**
 * Is it still the visitor, by face-api (the independent judge, see `face-api.ts`): the face read in
 * the framed photo against the face read in the finished artwork, as in `quality.test.ts`.
 */
export interface Likeness {
  /** face-api finds a face in the artwork where the framed photo's face is. */
  found: boolean;
  /** The worst eye, nose or mouth landmark's distance from the photo's, as a share of the face width. */
  landmarks: number;
  /** Face-recognition descriptor distance (≤ 0.6 is the same person; the issue asks ≤ 0.5). */
  descriptor: number;
}

/** face-api's 68-point groups: eyes (36–47), nose (27–35) and mouth (48–67). */
const FEATURE_POINTS = Array.from({ length: 68 - 27 }, (_, i) => 27 + i);

/** The face nearest a point (the engine centres the visitor's face; neighbours may be in shot). */
export function nearestFace(faces: FaceReading[], x: number, y: number): FaceReading | undefined {
  const distance = (f: FaceReading) => Math.hypot(f.box.x + f.box.width / 2 - x, f.box.y + f.box.height / 2 - y);
  return [...faces].sort((a, b) => distance(a) - distance(b))[0];
}

/** face-api's reading of the visitor in the framed photo (read once, compared with every variant). */
export async function sourceFace(details: RenderDetails): Promise<FaceReading | undefined> {
  const { framed, framing } = details;
  return nearestFace(await readFaces(framed.data, framed.width, framed.height), framing.target.x, framing.target.y);
}

export async function likenessOf(details: RenderDetails, source: FaceReading): Promise<Likeness> {
  const art = await toRgb(details.jpeg);
  const face = nearestFace(
    await readFaces(art.data, art.width, art.height),
    source.box.x + source.box.width / 2,
    source.box.y + source.box.height / 2,
  );
  // A face read far from the visitor's (a neighbour in shot) is not the visitor's.
  const centre = (f: FaceReading) => ({ x: f.box.x + f.box.width / 2, y: f.box.y + f.box.height / 2 });
  if (
    !face ||
    Math.hypot(centre(face).x - centre(source).x, centre(face).y - centre(source).y) > source.box.width / 2
  ) {
    return { found: false, landmarks: Number.NaN, descriptor: Number.NaN };
  }
  const errors = FEATURE_POINTS.map(
    (i) =>
      Math.hypot(
        (face.landmarks[i]?.x ?? Number.NaN) - (source.landmarks[i]?.x ?? 0),
        (face.landmarks[i]?.y ?? Number.NaN) - (source.landmarks[i]?.y ?? 0),
      ) / source.box.width,
  );
  return {
    found: true,
    landmarks: Math.max(...errors),
    descriptor: await descriptorDistance(face.descriptor, source.descriptor),
  };
}
