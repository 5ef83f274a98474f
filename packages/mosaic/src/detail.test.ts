import { describe, expect, it } from 'vitest';
import { buildSizeMap, TILE_SIZES } from './detail.js';
import { sobel } from './gradient.js';
import { GUIDE_CELL } from './guides.js';
import type { Landmarks } from './landmarks.js';
import { layingInputs } from './testing/laying-inputs.js';
import { buildSizeMap as reference } from './testing/reference/detail.js';
import { differingElements } from './testing/same-bits.js';

/** `count` points on a circle, as x, y pairs. */
function ring(cx: number, cy: number, radius: number, count: number): Float32Array {
  const points = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    points[i * 2] = cx + radius * Math.cos((i / count) * 2 * Math.PI);
    points[i * 2 + 1] = cy + radius * Math.sin((i / count) * 2 * Math.PI);
  }
  return points;
}

/** A stand-in face: a round outline around (cx, cy) with its features where a face has them. */
function roundFace(cx: number, cy: number, radius: number): Landmarks {
  const r = radius;
  return {
    outline: ring(cx, cy, r, 36),
    rightEye: ring(cx - 0.35 * r, cy - 0.2 * r, 0.12 * r, 16),
    leftEye: ring(cx + 0.35 * r, cy - 0.2 * r, 0.12 * r, 16),
    rightBrow: ring(cx - 0.35 * r, cy - 0.4 * r, 0.15 * r, 10),
    leftBrow: ring(cx + 0.35 * r, cy - 0.4 * r, 0.15 * r, 10),
    nose: ring(cx, cy + 0.1 * r, 0.1 * r, 16),
    lips: ring(cx, cy + 0.5 * r, 0.2 * r, 20),
    mouth: ring(cx, cy + 0.5 * r, 0.15 * r, 4),
    cheeks: Float32Array.of(cx - r, cy, cx + r, cy),
  };
}

describe('detail map', () => {
  const width = 60;
  const height = 75;
  const cell = 4;
  const face = roundFace(120, 150, 60);

  it('asks for small tiles on the face, larger on the person, largest in the background', () => {
    const luma = new Float32Array(width * height).fill(50);
    const mask = new Float32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width / 2; x++) mask[y * width + x] = 1;
    const map = buildSizeMap(sobel(luma, width, height, 'test-luma').magnitude, mask, width, height, cell, face);
    const at = (x: number, y: number) => map.sizes[Math.floor(y / cell) * width + Math.floor(x / cell)] as number;
    expect(at(120, 150)).toBeLessThanOrEqual(TILE_SIZES.face);
    // The features, found by their landmark groups, get the smallest tiles of all.
    expect(at(120 - 21, 150 - 12)).toBeCloseTo(TILE_SIZES.eyes, 3);
    expect(at(120 + 21, 150 - 12)).toBeCloseTo(TILE_SIZES.eyes, 3);
    expect(at(120, 150 + 30)).toBeCloseTo(TILE_SIZES.mouth, 3);
    expect(at(20, 280)).toBeCloseTo(TILE_SIZES.person, 0);
    expect(at(220, 280)).toBeCloseTo(TILE_SIZES.background, 0);
  });
});

describe('detail map in WebAssembly', () => {
  it.each(['sample1', 'sample5'])(
    'writes the same bits as the JavaScript it replaced, on %s',
    async (name) => {
      const { gradient, mask, gridWidth, gridHeight, landmarks } = await layingInputs(name);
      const got = buildSizeMap(gradient.magnitude, mask, gridWidth, gridHeight, GUIDE_CELL, landmarks).sizes.slice();
      const want = reference(gradient.magnitude, mask, gridWidth, gridHeight, GUIDE_CELL, landmarks).sizes;
      expect(differingElements(got, want)).toBe(0);
      // Not vacuous: the features' small tiles and the background's large ones are both there.
      expect(Math.min(...got)).toBeLessThan(TILE_SIZES.brows);
      expect(Math.max(...got)).toBeCloseTo(TILE_SIZES.background, 3);
    },
    60_000,
  );

  it('writes the same bits on small grids of every width modulo four, and a single cell', () => {
    for (const [width, height] of [
      [1, 1],
      [3, 2],
      [5, 7],
      [6, 9],
      [7, 4],
      [60, 75],
    ] as const) {
      const n = width * height;
      const luma = new Float32Array(n).map((_, i) => ((i * 7919) % 101) - 20);
      const mask = new Float32Array(n).map((_, i) => ((i * 31) % 17) / 16);
      const face = roundFace(width * 2, height * 2, Math.max(width, height));
      const gradient = sobel(luma, width, height, 'test-luma').magnitude.slice();
      const got = buildSizeMap(gradient, mask, width, height, 4, face).sizes.slice();
      expect(differingElements(got, reference(gradient, mask, width, height, 4, face).sizes)).toBe(0);
    }
  });
});
