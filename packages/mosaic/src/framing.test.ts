import { describe, expect, it } from 'vitest';
import { type Framing, fillsCanvas, fitToPhoto, photoCoverage, toArtwork } from './framing.js';
import { LAYOUT } from './layout.js';

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
