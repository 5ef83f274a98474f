import type { SizeMap } from './detail.js';
import type { Point } from './face.js';

/** Where tesserae start: x, y in artwork pixels plus the intended tile spacing and role. */
export interface Seeds {
  count: number;
  x: Float32Array;
  y: Float32Array;
  size: Float32Array;
  /** 1 for the visitor, 0 for the background pattern. */
  person: Uint8Array;
}

const ROOT = 72;
const MIN_CELL = 9;

/**
 * Lays seeds for the person with a quadtree that splits wherever the size map asks for smaller
 * tiles (72 → 36 → 18 → 9 px, jittered so the grid disappears), and for the background along
 * concentric rings around the face, the way mosaicists lay rows of tesserae around a figure.
 */
export function placeSeeds(
  map: SizeMap,
  isPerson: (x: number, y: number) => boolean,
  width: number,
  height: number,
  centre: Point,
  random: () => number,
): Seeds {
  const xs: number[] = [];
  const ys: number[] = [];
  const sizes: number[] = [];
  const people: number[] = [];
  const push = (x: number, y: number, size: number, person: number) => {
    xs.push(x);
    ys.push(y);
    sizes.push(size);
    people.push(person);
  };
  const sizeAt = (x: number, y: number): number => {
    const gx = Math.min(map.width - 1, Math.max(0, Math.floor(x / map.cell)));
    const gy = Math.min(map.height - 1, Math.max(0, Math.floor(y / map.cell)));
    return map.sizes[gy * map.width + gx] as number;
  };

  const visit = (x0: number, y0: number, cell: number): void => {
    if (x0 >= width || y0 >= height) return;
    let smallest = Number.POSITIVE_INFINITY;
    for (let sy = 0; sy <= 2; sy++) {
      for (let sx = 0; sx <= 2; sx++) {
        smallest = Math.min(smallest, sizeAt(x0 + (cell * sx) / 2, y0 + (cell * sy) / 2));
      }
    }
    if (cell > MIN_CELL && cell > 1.2 * smallest) {
      const half = cell / 2;
      visit(x0, y0, half);
      visit(x0 + half, y0, half);
      visit(x0, y0 + half, half);
      visit(x0 + half, y0 + half, half);
      return;
    }
    const x = Math.min(width - 1, x0 + cell * (0.5 + (random() - 0.5) * 0.6));
    const y = Math.min(height - 1, y0 + cell * (0.5 + (random() - 0.5) * 0.6));
    if (isPerson(x, y)) push(x, y, cell, 1);
  };
  for (let y = 0; y < height; y += ROOT) {
    for (let x = 0; x < width; x += ROOT) visit(x, y, ROOT);
  }

  const farthest = Math.hypot(Math.max(centre.x, width - centre.x), Math.max(centre.y, height - centre.y));
  const spacing = map.sizes.reduce((a, b) => Math.max(a, b), 0);
  for (let r = spacing * 0.75; r < farthest + spacing; r += spacing) {
    const steps = Math.max(6, Math.round((2 * Math.PI * r) / spacing));
    const phase = random() * 2 * Math.PI;
    for (let s = 0; s < steps; s++) {
      const angle = phase + (s * 2 * Math.PI) / steps;
      const x = centre.x + r * Math.cos(angle);
      const y = centre.y + r * Math.sin(angle);
      if (x < -spacing / 2 || y < -spacing / 2 || x > width + spacing / 2 || y > height + spacing / 2) continue;
      if (!isPerson(x, y)) push(Math.min(width - 1, Math.max(0, x)), Math.min(height - 1, Math.max(0, y)), spacing, 0);
    }
  }
  return {
    count: xs.length,
    x: Float32Array.from(xs),
    y: Float32Array.from(ys),
    size: Float32Array.from(sizes),
    person: Uint8Array.from(people),
  };
}
