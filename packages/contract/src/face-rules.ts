/**
 * When a photo cannot make a good portrait: the engine refuses it (`no_face`, `multiple_faces`,
 * `face_too_small`, `too_dark`) and the camera's face guide coaches the visitor away from it. Both
 * import these limits and rules, so a pose the guide calls good is never refused for them afterwards.
 */
export const FACE_LIMITS = {
  /** A second face at least this share of the largest face's area means there is no clear subject. */
  dominance: 0.45,
  /** Smallest face width in the photo's own pixels: below it the features are mush once enlarged. */
  minWidth: 72,
  /** Smallest face width as a share of the photo's long side. */
  minShare: 0.06,
  /** Mean luma (0–255) of the face's centre below which it is too dark to read. */
  minFaceLuma: 45,
  /** Mean luma of the whole photo below which nothing can be seen. */
  minImageLuma: 22,
} as const;

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pixels as decoders and canvases hold them: RGB (3 channels) or RGBA (4), row by row. */
export interface Pixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Mean Rec. 601 luma of `box` (or the whole image), sampled on a grid of about 64 × 64 points:
 * the same measure on a 1600 px photo and a 320 px preview frame.
 */
export function meanLuma({ data, width, height, channels }: Pixels, box?: FaceBox): number {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(width, Math.ceil(box ? box.x + box.width : width));
  const y1 = Math.min(height, Math.ceil(box ? box.y + box.height : height));
  const step = Math.max(1, Math.floor(Math.min(x1 - x0, y1 - y0) / 64));
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * width + x) * channels;
      sum += 0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number);
      count++;
    }
  }
  return count ? sum / count : 0;
}

/** The face's centre (the middle 60 % each way), where hair and background do not lighten or darken it. */
export function faceCentre({ x, y, width, height }: FaceBox): FaceBox {
  return { x: x + width * 0.2, y: y + height * 0.2, width: width * 0.6, height: height * 0.6 };
}

/** The luma the darkness rule reads: the face centre's mean. */
export function faceLuma(pixels: Pixels, face: FaceBox): number {
  return meanLuma(pixels, faceCentre(face));
}

/** Too dark: the whole picture (`imageLuma`) or the face's centre (`faceLuma`) is below its limit. */
export function isTooDark({ imageLuma, faceLuma }: { imageLuma?: number; faceLuma?: number }): boolean {
  return (
    (imageLuma !== undefined && imageLuma < FACE_LIMITS.minImageLuma) ||
    (faceLuma !== undefined && faceLuma < FACE_LIMITS.minFaceLuma)
  );
}

/**
 * The subject among several faces: the largest, unless another is at least `dominance` of its area
 * (then there is no clear subject and the answer is undefined). Returns the subject's index.
 */
export function dominantFace(faces: readonly { width: number; height: number }[]): number | undefined {
  if (faces.length === 0) return undefined;
  const areas = faces.map((face) => face.width * face.height);
  const order = areas.map((_, index) => index).sort((a, b) => (areas[b] as number) - (areas[a] as number));
  const [main, second] = order as [number, number | undefined];
  if (second !== undefined && (areas[second] as number) >= FACE_LIMITS.dominance * (areas[main] as number)) {
    return undefined;
  }
  return main;
}

/**
 * Too small: the face is narrower than `minWidth` photo pixels or than `minShare` of the picture's
 * long side. `faceWidth` and `longSide` are in the same pixels; `photoScale` turns them into the
 * photo's (the engine measures on a smaller copy, the guide on a smaller preview frame).
 */
export function isFaceTooSmall({
  faceWidth,
  longSide,
  photoScale = 1,
}: {
  faceWidth: number;
  longSide: number;
  photoScale?: number;
}): boolean {
  return faceWidth * photoScale < FACE_LIMITS.minWidth || faceWidth < FACE_LIMITS.minShare * longSide;
}
