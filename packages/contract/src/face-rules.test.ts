import { describe, expect, it } from 'vitest';
import { dominantFace, FACE_LIMITS, faceLuma, isFaceTooSmall, isTooDark, meanLuma, type Pixels } from './face-rules.js';

/** A grey picture, with a brighter square when `square` is given. */
function picture(
  width: number,
  height: number,
  channels: 3 | 4,
  grey: number,
  square?: [number, number, number, number],
): Pixels {
  const data = new Uint8ClampedArray(width * height * channels).fill(grey);
  if (square) {
    const [sx, sy, size, value] = square;
    for (let y = sy; y < sy + size; y++)
      for (let x = sx; x < sx + size; x++) data.fill(value, (y * width + x) * channels, (y * width + x) * channels + 3);
  }
  return { data, width, height, channels };
}

describe('the shared face rules', () => {
  it('measures the same luma on an RGB photo and an RGBA preview frame of the same scene', () => {
    const photo = picture(1600, 1200, 3, 30, [600, 400, 400, 200]);
    const frame = picture(320, 240, 4, 30, [120, 80, 80, 200]);
    expect(faceLuma(photo, { x: 600, y: 400, width: 400, height: 400 })).toBeCloseTo(200, 0);
    expect(faceLuma(frame, { x: 120, y: 80, width: 80, height: 80 })).toBeCloseTo(200, 0);
    expect(Math.abs(meanLuma(photo) - meanLuma(frame))).toBeLessThan(1);
  });

  it('reads only the face centre, so a bright background does not hide a dark face', () => {
    const frame = picture(100, 100, 4, 240, [20, 20, 60, 20]);
    expect(isTooDark({ faceLuma: faceLuma(frame, { x: 10, y: 10, width: 80, height: 80 }) })).toBe(true);
    expect(isTooDark({ imageLuma: meanLuma(frame) })).toBe(false);
  });

  it('calls a picture too dark at the limits, not above them', () => {
    expect(isTooDark({ faceLuma: FACE_LIMITS.minFaceLuma - 1 })).toBe(true);
    expect(isTooDark({ faceLuma: FACE_LIMITS.minFaceLuma })).toBe(false);
    expect(isTooDark({ imageLuma: FACE_LIMITS.minImageLuma - 1 })).toBe(true);
    expect(isTooDark({})).toBe(false);
  });

  it('keeps the largest face unless a second one is nearly as large', () => {
    const big = { width: 100, height: 100 };
    expect(dominantFace([])).toBeUndefined();
    expect(dominantFace([{ width: 30, height: 30 }, big])).toBe(1);
    expect(dominantFace([big, { width: 70, height: 70 }])).toBeUndefined();
  });

  it('finds a face too small in the photo’s pixels or as a share of the picture', () => {
    // 60 px in a 320 px frame of a 1600 px photo is 300 photo pixels: fine.
    expect(isFaceTooSmall({ faceWidth: 60, longSide: 320, photoScale: 5 })).toBe(false);
    // The same share of a 640 px photo taken at its own size is still wide enough…
    expect(isFaceTooSmall({ faceWidth: 120, longSide: 640 })).toBe(false);
    // …but 15 px is under 6 % of the long side, and 60 px under the 72 px minimum.
    expect(isFaceTooSmall({ faceWidth: 15, longSide: 320, photoScale: 5 })).toBe(true);
    expect(isFaceTooSmall({ faceWidth: 60, longSide: 600 })).toBe(true);
  });
});
