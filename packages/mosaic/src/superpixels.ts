import { enforceConnectivity } from './connectivity.js';
import type { SizeMap } from './detail.js';
import { refineToFull } from './refine.js';
import { scratch } from './scratch.js';
import type { Seeds } from './seeds.js';
import { type Centres, COMPACTNESS, createCentres, MASK_WEIGHT, type WorkingImage } from './slic-metric.js';

export type { WorkingImage } from './slic-metric.js';

/**
 * Adaptive SLIC: seeds grow into tiles by k-means on position, CIELAB colour and the person mask,
 * with the spatial term normalised by the size map at each pixel, so small and large tiles meet
 * without the large ones swallowing the small. One Lloyd step relaxes the seeds at a quarter of
 * the artwork's resolution, the clustering runs at half, and tile borders are then redrawn at
 * full resolution.
 */

/**
 * Search window radius in tile spacings. SLIC's is one spacing; a tenth more leaves no pixel
 * outside every window where small tiles meet large ones.
 */
const WINDOW = 1.1;

export interface Tiles {
  count: number;
  /** Tile index of every artwork pixel (a few thousand tiles: 16 bits are plenty). */
  labels: Uint16Array;
  /** Mean person probability of each tile (0–1). */
  person: Float32Array;
  /** Intended spacing of each tile in artwork pixels. */
  spacing: Float32Array;
  /** Centroid of each tile in artwork pixels. */
  x: Float32Array;
  y: Float32Array;
  /** Mean CIELAB colour of the photo under each tile, interleaved. */
  lab: Float32Array;
}

export function buildTiles(
  half: WorkingImage,
  quarter: WorkingImage,
  seeds: Seeds,
  width: number,
  height: number,
): Tiles {
  const relaxed = relax(half, quarter, seeds);
  const raw = assign(half, seeds, relaxed);
  const { labels: halfLabels, origin, count } = enforceConnectivity(raw, half.width, half.height, seeds);
  // Tiles are at least 7.5 px across, so a 1080×1350 artwork has far fewer than 65,536.
  if (count > 0xffff) throw new Error(`${count} tiles do not fit 16-bit labels`);
  const centres = measure(half, halfLabels, count, origin, seeds);
  const labels = refineToFull(half, halfLabels, centres, width, height);
  const spacing = new Float32Array(count);
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const lab = new Float32Array(count * 3);
  for (let t = 0; t < count; t++) {
    spacing[t] = seeds.size[origin[t] as number] as number;
    x[t] = (centres.x[t] as number) * 2 + 1;
    y[t] = (centres.y[t] as number) * 2 + 1;
    lab[t * 3] = centres.l[t] as number;
    lab[t * 3 + 1] = centres.a[t] as number;
    lab[t * 3 + 2] = centres.b[t] as number;
  }
  return { count, labels, person: centres.m, spacing, x, y, lab };
}

/**
 * The working image at a quarter of the artwork's resolution (2×2 means of the half-resolution
 * colour and person mask), for the size map and the relaxation step.
 */
export function quarterOf(
  lab: Float32Array,
  mask: Float32Array,
  width: number,
  height: number,
): { width: number; height: number; lab: Float32Array; mask: Float32Array } {
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const quarterLab = scratch('quarter-lab', Float32Array, qw * qh * 3);
  const quarterMask = scratch('quarter-mask', Float32Array, qw * qh);
  for (let y = 0, q = 0; y < qh; y++) {
    const row0 = y * 2 * width;
    const row1 = Math.min(height - 1, y * 2 + 1) * width;
    for (let x = 0; x < qw; x++, q++) {
      const x1 = Math.min(width - 1, x * 2 + 1);
      const a = row0 + x * 2;
      const b = row0 + x1;
      const c = row1 + x * 2;
      const d = row1 + x1;
      for (let k = 0; k < 3; k++) {
        quarterLab[q * 3 + k] =
          ((lab[a * 3 + k] as number) +
            (lab[b * 3 + k] as number) +
            (lab[c * 3 + k] as number) +
            (lab[d * 3 + k] as number)) *
          0.25;
      }
      quarterMask[q] = ((mask[a] as number) + (mask[b] as number) + (mask[c] as number) + (mask[d] as number)) * 0.25;
    }
  }
  return { width: qw, height: qh, lab: quarterLab, mask: quarterMask };
}

/**
 * 1 / (tile spacing)² for every pixel at half and at a quarter of the artwork's resolution, from
 * a size map whose cells are 4 artwork pixels (one quarter-resolution pixel) wide.
 */
export function inverseSpacings(
  sizeMap: SizeMap,
  halfWidth: number,
  halfHeight: number,
): { half: Float32Array; quarter: Float32Array } {
  const quarter = scratch('quarter-spacing', Float32Array, sizeMap.sizes.length);
  for (let i = 0; i < quarter.length; i++) {
    // A spacing of s artwork pixels is s / 4 quarter-resolution pixels.
    quarter[i] = 16 / ((sizeMap.sizes[i] as number) * (sizeMap.sizes[i] as number));
  }
  const half = scratch('half-spacing', Float32Array, halfWidth * halfHeight);
  for (let y = 0, i = 0; y < halfHeight; y++) {
    const row = (y >> 1) * sizeMap.width;
    // Half-resolution pixels are half as large: the same spacing counts half as many of them.
    for (let x = 0; x < halfWidth; x++, i++) half[i] = (quarter[row + (x >> 1)] as number) * 0.25;
  }
  return { half, quarter };
}

/** A seed's search window: whole pixels within `r` of its centre, inside the image. */
interface Window {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function windowAround(cx: number, cy: number, r: number, width: number, height: number): Window {
  return {
    x0: Math.max(0, Math.ceil(cx - r)),
    x1: Math.min(width - 1, Math.floor(cx + r)),
    y0: Math.max(0, Math.ceil(cy - r)),
    y1: Math.min(height - 1, Math.floor(cy + r)),
  };
}

/**
 * Gives seed `s` the pixels of its window that lie nearer to it than to any seed seen so far, by
 * position (in tile spacings) and person mask alone.
 */
function claimByPosition(
  image: Pick<WorkingImage, 'width' | 'mask' | 'inverseSpacing2'>,
  s: number,
  cx: number,
  cy: number,
  cm: number,
  { x0, x1, y0, y1 }: Window,
  labels: Int32Array,
  distance: Float32Array,
): void {
  const { width, mask, inverseSpacing2 } = image;
  for (let y = y0; y <= y1; y++) {
    const dy2 = (y - cy) * (y - cy);
    for (let x = x0, i = y * width + x0; x <= x1; x++, i++) {
      const dx = x - cx;
      const dm = (mask[i] as number) - cm;
      const d = (dx * dx + dy2) * (inverseSpacing2[i] as number) + MASK_WEIGHT * dm * dm;
      if (d < (distance[i] as number)) {
        distance[i] = d;
        labels[i] = s;
      }
    }
  }
}

/**
 * One Lloyd step: a plain Voronoi of the seeds (in the size map's metric, with the person mask)
 * whose centroids spread the seeds towards an even, centroidal layout, and whose mean colours
 * start the colour-aware pass. Its centroids are only a starting point, so it runs at a quarter
 * of the artwork's resolution, where it costs a quarter as much.
 */
function relax(half: WorkingImage, quarter: WorkingImage, seeds: Seeds): Centres {
  const { width, height, lab, mask } = quarter;
  const k = seeds.count;
  const n = width * height;
  const labels = scratch('relax-labels', Int32Array, n).fill(-1);
  const distance = scratch('relax-distance', Float32Array, n).fill(Number.POSITIVE_INFINITY);
  for (let s = 0; s < k; s++) {
    // Artwork pixel x lies at quarter-pixel coordinate (x − 1.5) / 4.
    const cx = Math.min(width - 1, Math.max(0, ((seeds.x[s] as number) - 1.5) / 4));
    const cy = Math.min(height - 1, Math.max(0, ((seeds.y[s] as number) - 1.5) / 4));
    const cm = seeds.person[s] as number;
    const box = windowAround(cx, cy, (seeds.size[s] as number) * 0.25 * WINDOW, width, height);
    claimByPosition(quarter, s, cx, cy, cm, box, labels, distance);
  }
  const sums = new Float64Array(k * 7);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const s = labels[i] as number;
      if (s < 0) continue;
      const o = s * 7;
      sums[o] = (sums[o] as number) + 1;
      sums[o + 1] = (sums[o + 1] as number) + x;
      sums[o + 2] = (sums[o + 2] as number) + y;
      sums[o + 3] = (sums[o + 3] as number) + (lab[i * 3] as number);
      sums[o + 4] = (sums[o + 4] as number) + (lab[i * 3 + 1] as number);
      sums[o + 5] = (sums[o + 5] as number) + (lab[i * 3 + 2] as number);
      sums[o + 6] = (sums[o + 6] as number) + (mask[i] as number);
    }
  }
  const c = createCentres(k);
  for (let s = 0; s < k; s++) {
    // Half-resolution coordinates: artwork pixel x lies at (x − 0.5) / 2, quarter pixel q at 2q + 0.5.
    const sx = Math.min(half.width - 1, Math.max(0, ((seeds.x[s] as number) - 0.5) / 2));
    const sy = Math.min(half.height - 1, Math.max(0, ((seeds.y[s] as number) - 0.5) / 2));
    const person = seeds.person[s] === 1;
    // The background becomes the campaign pattern, so its tiles ignore the room's colours.
    c.colourWeight[s] = person ? 1 / (COMPACTNESS * COMPACTNESS) : 0;
    const count = sums[s * 7] as number;
    if (count === 0) {
      const i = Math.round(sy) * half.width + Math.round(sx);
      c.x[s] = sx;
      c.y[s] = sy;
      c.l[s] = half.lab[i * 3] as number;
      c.a[s] = half.lab[i * 3 + 1] as number;
      c.b[s] = half.lab[i * 3 + 2] as number;
      c.m[s] = seeds.person[s] as number;
      continue;
    }
    // Background seeds keep their ring positions so the rows of the pattern stay neat.
    c.x[s] = person ? ((sums[s * 7 + 1] as number) / count) * 2 + 0.5 : sx;
    c.y[s] = person ? ((sums[s * 7 + 2] as number) / count) * 2 + 0.5 : sy;
    c.l[s] = (sums[s * 7 + 3] as number) / count;
    c.a[s] = (sums[s * 7 + 4] as number) / count;
    c.b[s] = (sums[s * 7 + 5] as number) / count;
    c.m[s] = (sums[s * 7 + 6] as number) / count;
  }
  return c;
}

/**
 * The SLIC assignment at half resolution: each pixel joins the centre nearest in position (in
 * tile spacings), person mask and, for the visitor's tiles, colour, so tiles follow edges.
 */
function assign(half: WorkingImage, seeds: Seeds, c: Centres): Int32Array {
  const { width, height, lab, mask, inverseSpacing2 } = half;
  const n = width * height;
  const labels = scratch('cluster-labels', Int32Array, n).fill(-1);
  const distance = scratch('cluster-distance', Float32Array, n).fill(Number.POSITIVE_INFINITY);
  for (let s = 0; s < seeds.count; s++) {
    const cx = c.x[s] as number;
    const cy = c.y[s] as number;
    const cl = c.l[s] as number;
    const ca = c.a[s] as number;
    const cb = c.b[s] as number;
    const cm = c.m[s] as number;
    const w = c.colourWeight[s] as number;
    const box = windowAround(cx, cy, (seeds.size[s] as number) * 0.5 * WINDOW, width, height);
    if (w === 0) {
      // The background, which becomes the pattern: position and mask only.
      claimByPosition(half, s, cx, cy, cm, box, labels, distance);
      continue;
    }
    const { x0, x1, y0, y1 } = box;
    for (let y = y0; y <= y1; y++) {
      const dy2 = (y - cy) * (y - cy);
      for (let x = x0, i = y * width + x0; x <= x1; x++, i++) {
        const dx = x - cx;
        const o = i * 3;
        const dl = (lab[o] as number) - cl;
        const da = (lab[o + 1] as number) - ca;
        const db = (lab[o + 2] as number) - cb;
        const dm = (mask[i] as number) - cm;
        const d =
          (dx * dx + dy2) * (inverseSpacing2[i] as number) + w * (dl * dl + da * da + db * db) + MASK_WEIGHT * dm * dm;
        if (d < (distance[i] as number)) {
          distance[i] = d;
          labels[i] = s;
        }
      }
    }
  }
  return labels;
}

function measure(half: WorkingImage, labels: Int32Array, count: number, origin: Int32Array, seeds: Seeds): Centres {
  const sums = new Float64Array(count * 7);
  const { width, height, lab, mask } = half;
  // Row by row in runs of one tile: the sums are added to the tile's once per run.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; ) {
      const t = labels[row + x] as number;
      let l = 0;
      let a = 0;
      let b = 0;
      let m = 0;
      let end = x;
      for (let i = row + x; end < width && labels[i] === t; end++, i++) {
        l += lab[i * 3] as number;
        a += lab[i * 3 + 1] as number;
        b += lab[i * 3 + 2] as number;
        m += mask[i] as number;
      }
      const n = end - x;
      const o = t * 7;
      sums[o] = (sums[o] as number) + n;
      sums[o + 1] = (sums[o + 1] as number) + ((x + end - 1) * n) / 2;
      sums[o + 2] = (sums[o + 2] as number) + y * n;
      sums[o + 3] = (sums[o + 3] as number) + l;
      sums[o + 4] = (sums[o + 4] as number) + a;
      sums[o + 5] = (sums[o + 5] as number) + b;
      sums[o + 6] = (sums[o + 6] as number) + m;
      x = end;
    }
  }
  const c = createCentres(count);
  for (let t = 0; t < count; t++) {
    const size = Math.max(1, sums[t * 7] as number);
    c.x[t] = (sums[t * 7 + 1] as number) / size;
    c.y[t] = (sums[t * 7 + 2] as number) / size;
    c.l[t] = (sums[t * 7 + 3] as number) / size;
    c.a[t] = (sums[t * 7 + 4] as number) / size;
    c.b[t] = (sums[t * 7 + 5] as number) / size;
    c.m[t] = (sums[t * 7 + 6] as number) / size;
    c.colourWeight[t] = seeds.person[origin[t] as number] ? 1 / (COMPACTNESS * COMPACTNESS) : 0;
  }
  return c;
}
