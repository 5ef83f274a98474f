import { describe, expect, it } from 'vitest';
import { buildSizeMap, includeFace, TILE_SIZES } from './detail.js';

/** A stand-in FaceMesh: every point on a circle (the face oval) around (cx, cy). */
function circleMesh(cx: number, cy: number, radius: number): Float32Array {
  const mesh = new Float32Array(468 * 2);
  for (let i = 0; i < 468; i++) {
    const angle = (i / 468) * 2 * Math.PI * 7;
    mesh[i * 2] = cx + radius * Math.cos(angle);
    mesh[i * 2 + 1] = cy + radius * Math.sin(angle);
  }
  return mesh;
}

describe('detail map', () => {
  const width = 60;
  const height = 75;
  const cell = 4;
  const mesh = circleMesh(120, 150, 60);

  it('counts the face as the person even where segmentation saw nothing', () => {
    const mask = new Float32Array(width * height);
    includeFace(mask, width, height, cell, mesh);
    expect(mask[Math.floor(150 / cell) * width + Math.floor(120 / cell)]).toBe(1);
    expect(mask[0]).toBe(0);
    const covered = mask.reduce((sum, v) => sum + v, 0) * cell * cell;
    expect(covered).toBeGreaterThan(Math.PI * 50 * 50);
    expect(covered).toBeLessThan(Math.PI * 70 * 70);
  });

  it('asks for small tiles on the face, larger on the person, largest in the background', () => {
    const luma = new Float32Array(width * height).fill(50);
    const mask = new Float32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width / 2; x++) mask[y * width + x] = 1;
    const map = buildSizeMap(luma, mask, width, height, cell, mesh);
    const at = (x: number, y: number) => map.sizes[Math.floor(y / cell) * width + Math.floor(x / cell)] as number;
    expect(at(120, 150)).toBeLessThanOrEqual(TILE_SIZES.face);
    expect(at(20, 280)).toBeCloseTo(TILE_SIZES.person, 0);
    expect(at(220, 280)).toBeCloseTo(TILE_SIZES.background, 0);
  });
});
