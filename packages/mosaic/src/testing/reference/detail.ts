import { FEATURES, type Region, regionOf, type SizeMap, TILE_SIZES } from '../../detail.js';
import type { Landmarks } from '../../landmarks.js';
import { sobel } from './gradient.js';

/** 1 inside the ellipse, fading to 0 at 1.5 radii. */
function weight(region: Region, x: number, y: number): number {
  const dx = (x - region.cx) / region.rx;
  const dy = (y - region.cy) / region.ry;
  if (dx > 1.5 || dx < -1.5 || dy > 1.5 || dy < -1.5) return 0;
  const d = Math.sqrt(dx * dx + dy * dy);
  return d <= 1 ? 1 : d >= 1.5 ? 0 : 1 - (d - 1) * 2;
}

/** The JavaScript the engine's WebAssembly size-map loops replaced, kept as the reference their test compares with. */
export function buildSizeMap(
  lumaGradient: Float32Array,
  mask: Float32Array,
  width: number,
  height: number,
  cell: number,
  landmarks: Landmarks,
): SizeMap {
  const edges = blur(lumaGradient, width, height, 2);
  const silhouette = blur(sobel(mask, width, height).magnitude, width, height, 2);
  const features = FEATURES.map((f) => regionOf(landmarks[f.group], f.pad, f.size));
  const face = regionOf(landmarks.outline, 1.05, TILE_SIZES.face);
  const sizes = new Float32Array(width * height);
  for (let gy = 0; gy < height; gy++) {
    const y = (gy + 0.5) * cell;
    for (let gx = 0; gx < width; gx++) {
      const i = gy * width + gx;
      const x = (gx + 0.5) * cell;
      const person = mask[i] as number;
      let size = TILE_SIZES.background + (TILE_SIZES.person - TILE_SIZES.background) * smooth(person);
      size += (TILE_SIZES.face - size) * weight(face, x, y);
      const edge = Math.min(1, Math.max(0, ((edges[i] as number) - 10) / 50));
      size = Math.min(size, size + (TILE_SIZES.edgeFloor - size) * edge * person);
      const rim = Math.min(1, (silhouette[i] as number) * 2);
      size += (Math.min(size, TILE_SIZES.silhouette) - size) * rim;
      sizes[i] = size;
    }
  }
  // Each feature reaches 1.5 radii from its centre: only the cells there need looking at.
  for (const region of features) {
    const gx0 = Math.max(0, Math.floor((region.cx - 1.5 * region.rx) / cell - 0.5));
    const gx1 = Math.min(width - 1, Math.ceil((region.cx + 1.5 * region.rx) / cell - 0.5));
    const gy0 = Math.max(0, Math.floor((region.cy - 1.5 * region.ry) / cell - 0.5));
    const gy1 = Math.min(height - 1, Math.ceil((region.cy + 1.5 * region.ry) / cell - 0.5));
    for (let gy = gy0; gy <= gy1; gy++) {
      const y = (gy + 0.5) * cell;
      for (let gx = gx0; gx <= gx1; gx++) {
        const w = weight(region, (gx + 0.5) * cell, y);
        if (w === 0) continue;
        const i = gy * width + gx;
        const size = sizes[i] as number;
        sizes[i] = Math.min(size, size + (region.size - size) * w);
      }
    }
  }
  return { sizes, width, height, cell };
}

function smooth(t: number): number {
  const c = Math.min(1, Math.max(0, (t - 0.25) / 0.5));
  return c * c * (3 - 2 * c);
}

/**
 * Separable box blur of the given radius, edges clamped, with running sums. The columns are summed a whole row at a time (one running sum per column), so memory is
 * read in order.
 */
function blur(v: Float32Array, width: number, height: number, radius: number): Float32Array {
  const n = width * height;
  const tmp = new Float32Array(n);
  const out = new Float32Array(n);
  const norm = 1 / (2 * radius + 1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += v[row + Math.min(width - 1, Math.max(0, k))] as number;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum * norm;
      sum += (v[row + Math.min(width - 1, x + radius + 1)] as number) - (v[row + Math.max(0, x - radius)] as number);
    }
  }
  const sums = new Float64Array(width);
  for (let k = -radius; k <= radius; k++) {
    const row = Math.min(height - 1, Math.max(0, k)) * width;
    for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (tmp[row + x] as number);
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const enter = Math.min(height - 1, y + radius + 1) * width;
    const leave = Math.max(0, y - radius) * width;
    for (let x = 0; x < width; x++) {
      const sum = sums[x] as number;
      out[row + x] = sum * norm;
      sums[x] = sum + ((tmp[enter + x] as number) - (tmp[leave + x] as number));
    }
  }
  return out;
}
