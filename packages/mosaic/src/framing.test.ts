import { describe, expect, it } from 'vitest';
import type { RgbImage } from './decode.js';
import { type Framing, fillsCanvas, fitToPhoto, photoCoverage, toArtwork, warpToArtwork } from './framing.js';
import { LAYOUT } from './layout.js';
import { framedInputs } from './testing/framed-inputs.js';
import * as reference from './testing/reference/framing.js';
import { differingElements } from './testing/same-bits.js';

/** Upright framing with the given scale that puts photo point (sx, sy) at the face position. */
function framingOf(scale: number, sx: number, sy: number): Framing {
  return {
    cos: 1,
    sin: 0,
    scale,
    source: { x: sx, y: sy },
    target: { x: LAYOUT.faceCentreX * LAYOUT.width, y: LAYOUT.faceCentreY * LAYOUT.height },
  };
}

describe('photoCoverage', () => {
  it('is 0 beyond the photo, 1 well inside it, and fades in between', () => {
    // A 400×300 photo at scale 1, its centre on the face position: it spans x 340–740, y 390–690.
    const framing = framingOf(1, 200, 150);
    const weights = photoCoverage(framing, 400, 300, 1);
    const at = (x: number, y: number) => weights[y * LAYOUT.width + x] as number;
    expect(at(100, 100)).toBe(0);
    expect(at(330, 540)).toBe(0);
    expect(at(540, 700)).toBe(0);
    expect(at(540, 540)).toBe(1);
    expect(at(400, 540)).toBe(1);
    const nearEdge = at(350, 540);
    expect(nearEdge).toBeGreaterThan(0);
    expect(nearEdge).toBeLessThan(0.5);
    expect(fillsCanvas(framing, 400, 300)).toBe(false);
  });

  it('is 1 everywhere when the photo reaches well past the canvas (and fillsCanvas says so)', () => {
    const framing = framingOf(1, 800, 800);
    expect(fillsCanvas(framing, 1600, 2000)).toBe(true);
    expect(photoCoverage(framing, 1600, 2000, 2).every((w) => w === 1)).toBe(true);
    // Just short of the bottom edge: the fade would show there.
    expect(fillsCanvas(framing, 1600, 800 + 810 + 20)).toBe(false);
  });
});

describe('fitToPhoto', () => {
  it('keeps the standard framing when the photo fills the canvas', () => {
    const framing = framingOf(1, 800, 800);
    expect(fitToPhoto(framing, 1600, 2000)).toEqual(framing);
  });

  it('draws a close crop a little closer and lower, within 10 % and the upper half', () => {
    // A 480×640 photo whose face centre is 480 px down: the photo ends 240 px below it.
    const framing = framingOf(1.5, 240, 480);
    const fitted = fitToPhoto(framing, 480, 640);
    expect(fitted.scale).toBeGreaterThan(framing.scale);
    expect(fitted.scale).toBeLessThanOrEqual(framing.scale * 1.1 + 1e-9);
    expect(fitted.target.y).toBeGreaterThan(framing.target.y);
    expect(fitted.target.y).toBeLessThan(LAYOUT.height / 2);
    // More of the canvas shows the photo: its bottom edge comes down.
    expect(toArtwork(fitted, { x: 240, y: 640 }).y).toBeGreaterThan(toArtwork(framing, { x: 240, y: 640 }).y + 50);
  });
});

/** A framing turned by `degrees` that puts photo point (sx, sy) at the face position. */
function turned(degrees: number, scale: number, sx: number, sy: number): Framing {
  const angle = (degrees * Math.PI) / 180;
  return { ...framingOf(scale, sx, sy), cos: Math.cos(angle), sin: Math.sin(angle) };
}

/** A photo of smooth gradients and fine noise, so every bilinear weight shows. */
function pattern(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 3) {
      data[i] = (x * 255) / Math.max(1, width - 1);
      data[i + 1] = (y * 255) / Math.max(1, height - 1);
      data[i + 2] = (x * 7 + y * 13) & 255;
    }
  }
  return { data, width, height };
}

describe('warpToArtwork in WebAssembly', () => {
  it.each(['sample2', 'close'])(
    'writes the same bits as the JavaScript it replaced, on %s at half and full size',
    async (name) => {
      const { decoded, framed } = await framedInputs(name);
      const { small } = decoded;
      const photo = await decoded.photo.at(Math.max(small.width, small.height) * 2);
      for (const [image, reduction] of [
        [small, 2],
        [photo, 2],
        [photo, 1],
        [small, 6],
      ] as const) {
        const photoScale = image.width / small.width;
        const got = await warpToArtwork(image, framed.framing, reduction, photoScale);
        const want = await reference.warpToArtwork(image, framed.framing, reduction, photoScale);
        expect(got.width).toBe(want.width);
        expect(differingElements(got.data, want.data)).toBe(0);
      }
    },
    60_000,
  );

  it('writes the same bits turned and beyond the photo, where it paints the flat grey', async () => {
    for (const [framing, width, height] of [
      [turned(17, 1.3, 150, 120), 301, 257],
      [turned(-40, 0.8, 20, 30), 45, 37],
      [turned(90, 3, 1, 1), 2, 2],
    ] as const) {
      const image = pattern(width, height);
      const got = await warpToArtwork(image, framing, 2);
      const want = await reference.warpToArtwork(image, framing, 2);
      expect(differingElements(got.data, want.data)).toBe(0);
      expect(got.data.slice(0, 3)).toEqual(Uint8Array.of(128, 128, 128));
    }
  });

  it('writes into a working image of its own when given one', async () => {
    const image = pattern(64, 48);
    const framing = turned(5, 4, 32, 24);
    const out = new Uint8Array((LAYOUT.width / 2) * (LAYOUT.height / 2) * 3);
    const got = await warpToArtwork(image, framing, 2, 1, out);
    expect(got.data).toBe(out);
    expect(differingElements(out, (await reference.warpToArtwork(image, framing, 2)).data)).toBe(0);
  });
});

describe('photoCoverage in WebAssembly', () => {
  it('writes the same bits as the JavaScript it replaced, turned or not, at any reduction', () => {
    for (const [framing, width, height] of [
      [framingOf(1, 200, 150), 400, 300],
      [turned(12, 1.7, 240, 480), 480, 640],
      [turned(-33, 0.5, 700, 900), 1500, 2000],
    ] as const) {
      for (const reduction of [1, 2, 4]) {
        const got = photoCoverage(framing, width, height, reduction);
        const want = reference.photoCoverage(framing, width, height, reduction);
        expect(differingElements(got, want)).toBe(0);
        expect(got.some((w) => w > 0 && w < 1)).toBe(true);
      }
    }
  });
});
