import type { RgbImage } from './decode.js';
import type { FaceGeometry } from './face.js';
import type { Point } from './geometry.js';
import { LAYOUT } from './layout.js';
import { resizeRgb } from './resample.js';
import { addressOf, updateThrough, writeThrough } from './scratch.js';
import { wasmConstant, wasmFunction } from './wasm.js';

type Pointer = number;

const warpLoop =
  wasmFunction<
    (
      src: Pointer,
      sw: number,
      sh: number,
      out: Pointer,
      width: number,
      height: number,
      tx: number,
      ty: number,
      ux: number,
      uy: number,
      cx: number,
      cy: number,
    ) => void
  >('warpPhoto');
const fadeLoop =
  wasmFunction<
    (
      map: Pointer,
      ow: number,
      oh: number,
      tx: number,
      ty: number,
      ux: number,
      uy: number,
      sourceX: number,
      sourceY: number,
      width: number,
      height: number,
      scale: number,
    ) => void
  >('fadeBeyondPhotoLoop');

/**
 * A similarity transform from artwork pixels to photo pixels: the eyes end up level and the face
 * centred in the upper half at a consistent size.
 */
export interface Framing {
  /** Photo pixels per artwork pixel along the artwork's x axis, as a rotated vector. */
  cos: number;
  sin: number;
  /** Artwork pixels per photo pixel. */
  scale: number;
  source: Point;
  target: Point;
}

export function computeFraming(face: FaceGeometry): Framing {
  const angle = Math.atan2(face.rightEye.y - face.leftEye.y, face.rightEye.x - face.leftEye.x);
  const eyes = { x: (face.leftEye.x + face.rightEye.x) / 2, y: (face.leftEye.y + face.rightEye.y) / 2 };
  return {
    cos: Math.cos(angle),
    sin: Math.sin(angle),
    scale: (LAYOUT.faceWidth * LAYOUT.width) / face.width,
    source: { x: (eyes.x + face.mouth.x) / 2, y: (eyes.y + face.mouth.y) / 2 },
    target: { x: LAYOUT.faceCentreX * LAYOUT.width, y: LAYOUT.faceCentreY * LAYOUT.height },
  };
}

/**
 * When the photo is too small to fill the canvas around the face (a close crop, the corners of a
 * straightened tilted photo), the face may be drawn up to 10 % larger and sit up to 5 % of the
 * height lower (still in the upper half), where that shows clearly more of the photo: the face
 * stays nearly the consistent size and the pattern around it shrinks. Zooming out would only
 * shrink the photo's footprint along with the face, so it never helps.
 */
const ZOOM_STEPS = [1, 1.05, 1.1];
const SHIFT_STEPS = [0, 0.025, 0.05];
/** Share of the open canvas a candidate must gain per step away from the standard framing. */
const GAIN_PER_STEP = 0.02;

/** The standard framing, or a slightly closer and lower one where the photo falls short. */
export function fitToPhoto(framing: Framing, width: number, height: number): Framing {
  if (photoShare(framing, width, height) === 1) return framing;
  let best = framing;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const [zi, zoom] of ZOOM_STEPS.entries()) {
    for (const [si, shift] of SHIFT_STEPS.entries()) {
      const candidate = {
        ...framing,
        scale: framing.scale * zoom,
        target: { x: framing.target.x, y: framing.target.y + shift * LAYOUT.height },
      };
      const score = photoShare(candidate, width, height) - GAIN_PER_STEP * (zi + si);
      if (score > bestScore + 1e-9) {
        best = candidate;
        bestScore = score;
      }
    }
  }
  return best;
}

/** Share of the open canvas (inside the frame) that the photo covers, sampled on a 20-px grid. */
function photoShare(framing: Framing, width: number, height: number): number {
  let inside = 0;
  let total = 0;
  for (let y = LAYOUT.border + 10; y < LAYOUT.height - LAYOUT.band; y += 20) {
    for (let x = LAYOUT.border + 10; x < LAYOUT.width - LAYOUT.border; x += 20) {
      const p = fromArtwork(framing, { x, y });
      if (p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height) inside++;
      total++;
    }
  }
  return inside / total;
}

/** Maps a photo point into the artwork. */
export function toArtwork(framing: Framing, p: Point): Point {
  const dx = (p.x - framing.source.x) * framing.scale;
  const dy = (p.y - framing.source.y) * framing.scale;
  return {
    x: framing.target.x + dx * framing.cos + dy * framing.sin,
    y: framing.target.y - dx * framing.sin + dy * framing.cos,
  };
}

/** Maps an artwork point back into the photo. */
export function fromArtwork(framing: Framing, p: Point): Point {
  const dx = (p.x - framing.target.x) / framing.scale;
  const dy = (p.y - framing.target.y) / framing.scale;
  return {
    x: framing.source.x + dx * framing.cos - dy * framing.sin,
    y: framing.source.y + dx * framing.sin + dy * framing.cos,
  };
}

/** The roll the framing takes out, in degrees. */
export function rollDegrees(framing: Framing): number {
  return (Math.atan2(framing.sin, framing.cos) * 180) / Math.PI;
}

/**
 * Renders the framed photo at artwork size divided by `reduction` (the engine works at half size).
 * `photoScale` is the photo's size relative to the image the framing was measured on. Large
 * reductions go through sharp's Lanczos resize first so the bilinear warp never aliases; beyond
 * its edges the picture is a flat neutral grey. Every pixel of `out` is written.
 */
export async function warpToArtwork(
  photo: RgbImage,
  framing: Framing,
  reduction = 1,
  photoScale = 1,
  out = new Uint8Array(Math.round(LAYOUT.width / reduction) * Math.round(LAYOUT.height / reduction) * 3),
): Promise<RgbImage> {
  const { source, scale, factor } = await warpSource(photo, framing, reduction, photoScale);
  const width = Math.round(LAYOUT.width / reduction);
  const height = Math.round(LAYOUT.height / reduction);
  const inv = 1 / scale;
  // The photo comes from the decoder (outside the engine's memory) and is copied in.
  writeThrough(out, 'warp-out', (target) =>
    warpLoop(
      addressOf(source.data, 'warp-photo'),
      source.width,
      source.height,
      target,
      width,
      height,
      framing.target.x / reduction,
      framing.target.y / reduction,
      framing.cos * inv,
      framing.sin * inv,
      framing.source.x * factor,
      framing.source.y * factor,
    ),
  );
  return { data: out, width, height };
}

/**
 * The image `warpToArtwork` samples: the photo, or sharp's Lanczos resize of it for large
 * reductions; `scale` is artwork pixels per pixel of it, `factor` its size relative to the image
 * the framing was measured on.
 */
export async function warpSource(
  photo: RgbImage,
  framing: Framing,
  reduction: number,
  photoScale: number,
): Promise<{ source: RgbImage; scale: number; factor: number }> {
  let source = photo;
  let scale = framing.scale / reduction / photoScale;
  let factor = photoScale;
  if (scale < 0.65) {
    const width = Math.max(1, Math.round(photo.width * scale));
    const height = Math.max(1, Math.round(photo.height * scale));
    source = await resizeRgb(photo, width, height);
    const shrink = width / photo.width;
    factor *= shrink;
    scale /= shrink;
  }
  return { source, scale, factor };
}

/** The person weight is 0 up to this many artwork pixels inside the photo's edge… */
export const COVERAGE_OFFSET = wasmConstant('coverageOffset');
/** …and reaches 1 this many pixels further in (half-way at 18 px inside the edge). */
export const COVERAGE_FADE = wasmConstant('coverageFade');

/**
 * Whether the photo reaches past every canvas edge by more than the fade, so that photoCoverage
 * would be 1 everywhere (the usual case, which then costs nothing). The photo is a convex
 * rectangle, so the canvas corners decide.
 */
export function fillsCanvas(framing: Framing, width: number, height: number): boolean {
  const margin = (COVERAGE_OFFSET + COVERAGE_FADE) / framing.scale;
  for (const corner of [
    { x: 0, y: 0 },
    { x: LAYOUT.width, y: 0 },
    { x: 0, y: LAYOUT.height },
    { x: LAYOUT.width, y: LAYOUT.height },
  ]) {
    const p = fromArtwork(framing, corner);
    if (Math.min(p.x, width - p.x, p.y, height - p.y) < margin) return false;
  }
  return true;
}

/**
 * How far inside the photo each pixel of the framed image lies, as a weight for the person mask
 * (at artwork size divided by `reduction`; `width`×`height` is the image the framing was measured
 * on). Outside the photo there is no visitor to paint, only background: the weight is 0 there and
 * rises smoothly over COVERAGE_FADE artwork pixels inside the edge, so a body the photo cuts off
 * (shoulders at its bottom edge) ends in a soft vignette of pattern rather than a hard straight
 * cut. The fill beyond the edge (see warpToArtwork) is therefore never painted as the visitor.
 */
export function photoCoverage(
  framing: Framing,
  width: number,
  height: number,
  reduction: number,
  out = new Float32Array(Math.round(LAYOUT.width / reduction) * Math.round(LAYOUT.height / reduction)),
): Float32Array {
  return fadeBeyondPhoto(out.fill(1), framing, width, height, reduction);
}

/** Multiplies a map at artwork size divided by `reduction` by photoCoverage, in place. */
export function fadeBeyondPhoto(
  map: Float32Array,
  framing: Framing,
  width: number,
  height: number,
  reduction: number,
): Float32Array {
  // Photo pixels per output pixel along x; distances go back to artwork pixels with `scale`.
  return updateThrough(map, 'coverage-map', (target) =>
    fadeLoop(
      target,
      Math.round(LAYOUT.width / reduction),
      Math.round(LAYOUT.height / reduction),
      framing.target.x / reduction,
      framing.target.y / reduction,
      (framing.cos * reduction) / framing.scale,
      (framing.sin * reduction) / framing.scale,
      framing.source.x,
      framing.source.y,
      width,
      height,
      framing.scale,
    ),
  );
}
