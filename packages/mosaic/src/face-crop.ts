import type { RgbImage } from './decode.js';
import { addressOf, writeThrough } from './scratch.js';
import { wasmFunction } from './wasm.js';

/**
 * The arithmetic around the face networks (BlazeFace, FaceMesh), as MediaPipe and Human do it:
 * the detector's anchors and its raw output turned into candidate faces, each face's upright crop
 * for FaceMesh, and FaceMesh's points back in the photo's pixels. Plain arrays in, plain arrays
 * out: `models.ts` runs the networks.
 *
 * Sampling the crop straight from the photo, turned and scaled in one bilinear pass, is what makes
 * this cheaper than Human's pipeline, which turns the whole detector image (`rotateWithOffset`,
 * 5–6 ms at 512 px) before it crops 192 px out of it.
 */

/** A detector's square input side and its anchor centres, in input pixels (x, y pairs). */
export interface Anchors {
  size: number;
  centres: Float32Array;
}

/** BlazeFace's anchors: 2 per cell on the size/16 grid, 6 per cell on the size/8 grid (896 for both models). */
export function blazeFaceAnchors(size: number): Anchors {
  const layers = [
    { stride: size / 16, perCell: 2 },
    { stride: size / 8, perCell: 6 },
  ];
  const centres: number[] = [];
  for (const { stride, perCell } of layers) {
    const cells = Math.ceil(size / stride);
    for (let gy = 0; gy < cells; gy++) {
      for (let gx = 0; gx < cells; gx++) {
        for (let n = 0; n < perCell; n++) centres.push(stride * (gx + 0.5), stride * (gy + 0.5));
      }
    }
  }
  return { size, centres: Float32Array.from(centres) };
}

/** A detection in image pixels: its box, its six keypoints (eyes, nose, mouth, ears) and its score. */
export interface Candidate {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Right eye, left eye, nose tip, mouth, right ear, left ear: x, y pairs. */
  keypoints: Float32Array;
  score: number;
}

/** BlazeFace's raw row: a logit, the box (centre offset and size) and six keypoint offsets. */
const ROW = 17;
const KEYPOINTS = 6;

export interface DetectionLimits {
  minConfidence: number;
  /** Boxes overlapping a better one by more than this intersection over union are the same face. */
  iouThreshold: number;
  maxDetected: number;
}

/**
 * Candidate faces from BlazeFace's output (`anchors.size`² input, the whole image squeezed into
 * it) in the pixels of an image `width` × `height`: scores above `minConfidence`, best first,
 * overlapping boxes dropped (greedy non-maximum suppression).
 */
export function decodeDetections(
  raw: Float32Array,
  { size, centres }: Anchors,
  width: number,
  height: number,
  { minConfidence, iouThreshold, maxDetected }: DetectionLimits,
): Candidate[] {
  const count = centres.length / 2;
  const minLogit = Math.log(minConfidence / (1 - minConfidence));
  const order: number[] = [];
  for (let i = 0; i < count; i++) if ((raw[i * ROW] as number) > minLogit) order.push(i);
  order.sort((a, b) => (raw[b * ROW] as number) - (raw[a * ROW] as number));
  const sx = width / size;
  const sy = height / size;
  const kept: Candidate[] = [];
  for (const i of order) {
    if (kept.length >= maxDetected) break;
    const r = i * ROW;
    const ax = centres[i * 2] as number;
    const ay = centres[i * 2 + 1] as number;
    const cx = (raw[r + 1] as number) + ax;
    const cy = (raw[r + 2] as number) + ay;
    const hw = (raw[r + 3] as number) / 2;
    const hh = (raw[r + 4] as number) / 2;
    const keypoints = new Float32Array(KEYPOINTS * 2);
    for (let k = 0; k < KEYPOINTS; k++) {
      keypoints[k * 2] = ((raw[r + 5 + k * 2] as number) + ax) * sx;
      keypoints[k * 2 + 1] = ((raw[r + 6 + k * 2] as number) + ay) * sy;
    }
    const candidate = {
      x0: (cx - hw) * sx,
      y0: (cy - hh) * sy,
      x1: (cx + hw) * sx,
      y1: (cy + hh) * sy,
      keypoints,
      score: 1 / (1 + Math.exp(-(raw[r] as number))),
    };
    if (kept.every((other) => iou(other, candidate) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}

function iou(a: Candidate, b: Candidate): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const both = w * h;
  return both / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - both);
}

/** The square FaceMesh reads a face from: centre, side and turn (radians) in image pixels. */
export interface FaceCrop {
  cx: number;
  cy: number;
  side: number;
  angle: number;
}

/**
 * The detection's box enlarged 1.4 times and made square (Human's defaults, which FaceMesh is used
 * with), turned so that the line between the eyes is level: FaceMesh reads an upright face best.
 * (The line from the mouth up to the nose, Human's choice, leans with a turned head.)
 */
export function cropOf({ x0, y0, x1, y1, keypoints }: Candidate): FaceCrop {
  const [rightX, rightY, leftX, leftY] = keypoints.subarray(0, 4) as unknown as [number, number, number, number];
  return {
    cx: (x0 + x1) / 2,
    cy: (y0 + y1) / 2,
    side: 1.4 * Math.max(x1 - x0, y1 - y0),
    angle: Math.atan2(leftY - rightY, leftX - rightX),
  };
}

/**
 * Fills `out` (side² RGB floats, `value × scale + offset`) with the crop's square of `image`,
 * turned by the crop's angle, bilinear and averaged over k × k points per pixel when it shrinks
 * 3× or more (so a 6× reduction does not alias). Outside the image reads black, as in Human's crops.
 */
export function sampleCrop(
  image: RgbImage,
  crop: FaceCrop,
  side: number,
  out: Float32Array,
  scale: number,
  offset: number,
): Float32Array {
  return sampleAffine(image, side, side, out, scale, offset, cropAffine(crop, side));
}

/** The whole image squeezed into a side² square (the detector's view of it). */
export function sampleSquare(image: RgbImage, side: number, out: Float32Array, scale: number, offset: number) {
  return sampleAffine(image, side, side, out, scale, offset, squareAffine(image, side));
}

/** The map from a side² square's pixels to the crop's, in image pixels. */
export function cropAffine(crop: FaceCrop, side: number): Affine {
  const step = crop.side / side;
  const cos = Math.cos(crop.angle) * step;
  const sin = Math.sin(crop.angle) * step;
  // Output (u, v) reads the image at centre + R(angle) · ((u, v) − side/2) · step.
  return {
    ox: crop.cx - (cos - sin) * (side / 2),
    oy: crop.cy - (sin + cos) * (side / 2),
    ux: cos,
    uy: sin,
    vx: -sin,
    vy: cos,
  };
}

/** The map from a side² square's pixels to the whole image's. */
export function squareAffine(image: RgbImage, side: number): Affine {
  return { ox: 0, oy: 0, ux: image.width / side, uy: 0, vx: 0, vy: image.height / side };
}

/** Bilinear reads a side for each output pixel of `affine`. */
export function readsPerSide({ ux, uy, vx, vy }: Affine): number {
  const stretch = Math.max(Math.hypot(ux, uy), Math.hypot(vx, vy));
  // Each bilinear read spans about two pixels: k reads a side cover a reduction of about 2k (the nearest
  // k: FaceMesh's usual 2.2× crop takes one read a pixel, as Human's crops did; the detector's 6× square nine).
  return Math.min(4, Math.max(1, Math.round(stretch / 2)));
}

/** Output pixel (u, v)'s corner is at o + u·U + v·V in image pixels (pixel centres at +0.5). */
export interface Affine {
  ox: number;
  oy: number;
  ux: number;
  uy: number;
  vx: number;
  vy: number;
}

const sampleLoop =
  wasmFunction<
    (
      data: number,
      width: number,
      height: number,
      outWidth: number,
      outHeight: number,
      out: number,
      weight: number,
      offset: number,
      ox: number,
      oy: number,
      ux: number,
      uy: number,
      vx: number,
      vy: number,
      k: number,
    ) => void
  >('sampleAffineLoop');

function sampleAffine(
  { data, width, height }: RgbImage,
  outWidth: number,
  outHeight: number,
  out: Float32Array,
  scale: number,
  offset: number,
  { ox, oy, ux, uy, vx, vy }: Affine,
): Float32Array {
  const k = readsPerSide({ ox, oy, ux, uy, vx, vy });
  const weight = scale / (k * k);
  // The image comes from the decoder or the warp (outside the engine's memory) and is copied in.
  const image = addressOf(data, 'sample-image');
  return writeThrough(out, 'sample-out', (target) =>
    sampleLoop(image, width, height, outWidth, outHeight, target, weight, offset, ox, oy, ux, uy, vx, vy, k),
  );
}

/**
 * FaceMesh's points (x, y, z triples in the `side`-px crop) in image pixels (x, y pairs): scaled
 * to the crop's size, turned back and moved to its centre.
 */
export function meshToImage(raw: Float32Array, crop: FaceCrop, side: number): Float32Array {
  const count = raw.length / 3;
  const points = new Float32Array(count * 2);
  const step = crop.side / side;
  const cos = Math.cos(crop.angle) * step;
  const sin = Math.sin(crop.angle) * step;
  for (let i = 0; i < count; i++) {
    const u = (raw[i * 3] as number) - side / 2;
    const v = (raw[i * 3 + 1] as number) - side / 2;
    points[i * 2] = crop.cx + u * cos - v * sin;
    points[i * 2 + 1] = crop.cy + u * sin + v * cos;
  }
  return points;
}
