import { type SizeMap, TILE_SIZES } from './detail.js';
import type { Point } from './geometry.js';

/** Where tesserae start: x, y in artwork pixels plus the intended tile spacing and role. */
export interface Seeds {
  count: number;
  x: Float32Array;
  y: Float32Array;
  size: Float32Array;
  /** 1 for the visitor, 0 for the background pattern. */
  person: Uint8Array;
}

/**
 * Lays seeds for the person by error diffusion (Floyd–Steinberg) over the size map's density,
 * 1/size² seeds per pixel, so density follows the map continuously and the seeds come out evenly
 * spread, like blue noise; and for the background along concentric rings around the face, the way
 * mosaicists lay rows of tesserae around a figure.
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

  const { cell } = map;
  const w = map.width;
  const error = new Float32Array((w + 2) * 2);
  for (let gy = 0; gy < map.height; gy++) {
    const row = (gy & 1) * (w + 2);
    const next = ((gy + 1) & 1) * (w + 2);
    error.fill(0, next, next + w + 2);
    // Serpentine scan keeps the diffusion from drawing diagonal streaks.
    const reverse = (gy & 1) === 1;
    for (let k = 0; k < w; k++) {
      const gx = reverse ? w - 1 - k : k;
      const step = reverse ? -1 : 1;
      const x = (gx + 0.5) * cell;
      const y = (gy + 0.5) * cell;
      const size = map.sizes[gy * w + gx] as number;
      const wanted = isPerson(x, y) ? (cell * cell) / (size * size) : 0;
      const value = wanted + (error[row + gx + 1] as number);
      const placed = value >= 0.5 ? 1 : 0;
      if (placed) {
        push(
          Math.min(width - 1, x + (random() - 0.5) * cell),
          Math.min(height - 1, y + (random() - 0.5) * cell),
          size,
          1,
        );
      }
      const residual = value - placed;
      error[row + gx + 1 + step] = (error[row + gx + 1 + step] as number) + (residual * 7) / 16;
      error[next + gx + 1 - step] = (error[next + gx + 1 - step] as number) + (residual * 3) / 16;
      error[next + gx + 1] = (error[next + gx + 1] as number) + (residual * 5) / 16;
      error[next + gx + 1 + step] = (error[next + gx + 1 + step] as number) + (residual * 1) / 16;
    }
  }

  const farthest = Math.hypot(Math.max(centre.x, width - centre.x), Math.max(centre.y, height - centre.y));
  const spacing = TILE_SIZES.background;
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
