import { describe, expect, it } from 'vitest';
import type { RgbImage } from './decode.js';
import { blazeFaceAnchors, cropOf, decodeDetections, meshToImage, sampleCrop, sampleSquare } from './face-crop.js';
import { decode } from './stages.js';
import { portrait } from './testing/photos.js';
import * as reference from './testing/reference/face-crop.js';
import { differingElements } from './testing/same-bits.js';

const LIMITS = { minConfidence: 0.4, iouThreshold: 0.1, maxDetected: 4 };
const logit = (p: number) => Math.log(p / (1 - p));

/** A detector output with one row per anchor, every score far below the limit. */
function rows(anchors: number): Float32Array {
  const raw = new Float32Array(anchors * 17);
  for (let i = 0; i < anchors; i++) raw[i * 17] = -10;
  return raw;
}

/** Sets anchor i's row: a box `size` wide centred `dx`, `dy` off the anchor, eyes level 10 px apart. */
function setRow(raw: Float32Array, i: number, score: number, size: number, dx = 0, dy = 0): void {
  const r = i * 17;
  raw.set([logit(score), dx, dy, size, size, dx - 5, dy - 3, dx + 5, dy - 3, dx, dy, dx, dy + 4, 0, 0, 0, 0], r);
}

/** An image whose red channel is x and green channel y: where a sample was read is in its colour. */
function ramp(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x, y, 0], (y * width + x) * 3);
  }
  return { data, width, height };
}

describe('the face detector arithmetic', () => {
  it('has the 896 anchors BlazeFace predicts for, fine grid first', () => {
    const { size, centres } = blazeFaceAnchors(128);
    expect(size).toBe(128);
    expect(centres.length / 2).toBe(896);
    expect([centres[0], centres[1]]).toEqual([4, 4]);
    // The 16 × 16 grid has two anchors a cell: the coarse grid starts at row 512.
    expect([centres[512 * 2], centres[512 * 2 + 1]]).toEqual([8, 8]);
    expect(blazeFaceAnchors(256).centres.length / 2).toBe(896);
  });

  it('reads boxes and keypoints into image pixels, keeps the best of overlapping boxes and drops weak ones', () => {
    const anchors = blazeFaceAnchors(128);
    const raw = rows(896);
    // Anchor 100 is at (20, 28) in the 128-px input; anchor 101 shares it; anchor 600 is far off.
    setRow(raw, 100, 0.9, 40);
    setRow(raw, 101, 0.95, 40, 2, 0);
    setRow(raw, 600, 0.8, 20);
    setRow(raw, 700, 0.3, 20);
    // The image is 256 × 512: x doubles, y quadruples.
    const faces = decodeDetections(raw, anchors, 256, 512, LIMITS);
    expect(faces.map((f) => f.score.toFixed(2))).toEqual(['0.95', '0.80']);
    const [best] = faces;
    expect(best).toMatchObject({ x0: (22 - 20) * 2, x1: (22 + 20) * 2, y0: (28 - 20) * 4, y1: (28 + 20) * 4 });
    expect(Array.from(best?.keypoints.subarray(0, 4) ?? [])).toEqual([(22 - 5) * 2, 25 * 4, (22 + 5) * 2, 25 * 4]);
  });

  it('returns no more faces than asked for', () => {
    const raw = rows(896);
    for (const i of [0, 200, 400, 600, 800, 890]) setRow(raw, i, 0.9, 4);
    expect(decodeDetections(raw, blazeFaceAnchors(128), 128, 128, LIMITS)).toHaveLength(4);
  });

  it("cuts the face's square around the box, 1.4 times as large, levelled by its eyes", () => {
    const keypoints = new Float32Array([40, 50, 60, 70, 50, 60, 50, 70, 0, 0, 0, 0]);
    const crop = cropOf({ x0: 20, y0: 30, x1: 80, y1: 110, keypoints, score: 1 });
    expect(crop.cx).toBe(50);
    expect(crop.cy).toBe(70);
    expect(crop.side).toBeCloseTo(112);
    // The left eye is 20 px lower over 20 px: the face leans 45°.
    expect(crop.angle).toBeCloseTo(Math.PI / 4);
  });

  it('samples the whole image squeezed into the square, scaled and offset', () => {
    const image = ramp(200, 100);
    const out = sampleSquare(image, 10, new Float32Array(300), 1 / 127.5, -1);
    // Output pixel (0, 0) covers x 0–20 and y 0–10: its mean is (9.5, 4.5).
    expect(out[0]).toBeCloseTo(9.5 / 127.5 - 1, 2);
    expect(out[1]).toBeCloseTo(4.5 / 127.5 - 1, 2);
    expect(out[2]).toBeCloseTo(-1);
  });

  it('reads a turned crop where FaceMesh points map back to, and black outside the image', () => {
    const image = ramp(200, 200);
    const crop = { cx: 100, cy: 80, side: 64, angle: Math.PI / 6 };
    const side = 32;
    const out = sampleCrop(image, crop, side, new Float32Array(side * side * 3), 1, 0);
    for (const [u, v] of [
      [3, 5],
      [16, 16],
      [28, 9],
    ] as const) {
      // The mesh's coordinate of that pixel's centre, mapped back, is where its colour was read.
      const [x, y] = meshToImage(new Float32Array([u + 0.5, v + 0.5, 0]), crop, side);
      expect(out[(v * side + u) * 3]).toBeCloseTo((x as number) - 0.5, 1);
      expect(out[(v * side + u) * 3 + 1]).toBeCloseTo((y as number) - 0.5, 1);
    }
    const outside = sampleCrop(image, { cx: -100, cy: -100, side: 20, angle: 0 }, 8, new Float32Array(192), 1, 0);
    expect(Math.max(...outside)).toBe(0);
  });

  it('turns FaceMesh points back by the crop angle about its centre', () => {
    const crop = { cx: 50, cy: 50, side: 40, angle: Math.PI / 2 };
    // 10 px right of the crop's centre, turned a quarter, is 10 px below it.
    const [x, y] = meshToImage(new Float32Array([30, 20, 0]), crop, 40);
    expect(x).toBeCloseTo(50);
    expect(y).toBeCloseTo(60);
  });
});

describe("the networks' input sampling in WebAssembly", () => {
  it('writes the same bits as the JavaScript it replaced, on a photo, for the detectors and FaceMesh', async () => {
    const { small } = await decode(await portrait('sample3'));
    for (const side of [128, 256]) {
      const got = sampleSquare(small, side, new Float32Array(side * side * 3), 1 / 127.5, -1);
      const want = reference.sampleSquare(small, side, new Float32Array(side * side * 3), 1 / 127.5, -1);
      expect(differingElements(got, want)).toBe(0);
    }
    const { width, height } = small;
    for (const crop of [
      { cx: width / 2, cy: height * 0.4, side: width * 0.45, angle: 0.2 },
      { cx: width / 2, cy: height * 0.4, side: width * 1.4, angle: -0.7 },
      // Reaching past the photo's corner, where it reads black.
      { cx: 10, cy: 5, side: width * 0.3, angle: 0.5 },
    ]) {
      const got = sampleCrop(small, crop, 192, new Float32Array(192 * 192 * 3), 1 / 255, 0);
      const want = reference.sampleCrop(small, crop, 192, new Float32Array(192 * 192 * 3), 1 / 255, 0);
      expect(differingElements(got, want)).toBe(0);
      expect(Math.max(...got)).toBeGreaterThan(0.5);
    }
  });

  it('writes the same bits on tiny images and every reduction from one read a pixel to sixteen', () => {
    const image = ramp(37, 23);
    for (const side of [1, 3, 6, 10, 19]) {
      const got = sampleSquare(image, side, new Float32Array(side * side * 3), 0.5, 0.25);
      const want = reference.sampleSquare(image, side, new Float32Array(side * side * 3), 0.5, 0.25);
      expect(differingElements(got, want)).toBe(0);
    }
    const crop = { cx: 18, cy: 11, side: 30, angle: 1 };
    const got = sampleCrop(image, crop, 5, new Float32Array(75), 1, 0);
    expect(differingElements(got, reference.sampleCrop(image, crop, 5, new Float32Array(75), 1, 0))).toBe(0);
  });
});
