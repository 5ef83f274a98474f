import { scratch } from './scratch.js';
import type { Seeds } from './seeds.js';

/**
 * Adaptive SLIC: seeds grow into tiles by k-means on position, CIELAB colour and the person mask,
 * with the spatial term normalised by the size map at each pixel, so small and large tiles meet
 * without the large ones swallowing the small. Runs at half resolution; tile borders are then
 * redrawn at full resolution.
 */

/** Colour distance (ΔE) that weighs as much as one tile spacing: larger means more regular tiles. */
const COMPACTNESS = 18;
/** Weight of a full person/background mismatch, in squared tile spacings. */
const MASK_WEIGHT = 4;
const ITERATIONS = 2;

/** The working image at half resolution. */
export interface HalfImage {
  width: number;
  height: number;
  lab: Float32Array;
  mask: Float32Array;
  /** 1 / (tile spacing in half-resolution pixels)². */
  inverseSpacing2: Float32Array;
}

export interface Tiles {
  count: number;
  /** Tile index of every artwork pixel. */
  labels: Int32Array;
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

interface Centres {
  x: Float32Array;
  y: Float32Array;
  l: Float32Array;
  a: Float32Array;
  b: Float32Array;
  m: Float32Array;
  colourWeight: Float32Array;
}

export function buildTiles(half: HalfImage, seeds: Seeds, width: number, height: number): Tiles {
  const raw = cluster(half, seeds);
  const { labels: halfLabels, origin, count } = enforceConnectivity(raw, half.width, half.height, seeds);
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

function cluster(half: HalfImage, seeds: Seeds): Int32Array {
  const { width, height, lab, mask, inverseSpacing2 } = half;
  const k = seeds.count;
  const c: Centres = {
    x: new Float32Array(k),
    y: new Float32Array(k),
    l: new Float32Array(k),
    a: new Float32Array(k),
    b: new Float32Array(k),
    m: new Float32Array(k),
    colourWeight: new Float32Array(k),
  };
  for (let s = 0; s < k; s++) {
    const x = Math.min(width - 1, Math.floor((seeds.x[s] as number) / 2));
    const y = Math.min(height - 1, Math.floor((seeds.y[s] as number) / 2));
    const i = y * width + x;
    c.x[s] = x;
    c.y[s] = y;
    c.l[s] = lab[i * 3] as number;
    c.a[s] = lab[i * 3 + 1] as number;
    c.b[s] = lab[i * 3 + 2] as number;
    c.m[s] = seeds.person[s] as number;
    // The background becomes the campaign pattern, so its tiles ignore the room's colours.
    c.colourWeight[s] = seeds.person[s] ? 1 / (COMPACTNESS * COMPACTNESS) : 0;
  }
  const n = width * height;
  const labels = scratch('cluster-labels', Int32Array, n).fill(-1);
  const distance = scratch('cluster-distance', Float32Array, n);
  const sums = new Float64Array(k * 7);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    distance.fill(Number.POSITIVE_INFINITY);
    for (let s = 0; s < k; s++) {
      const cx = c.x[s] as number;
      const cy = c.y[s] as number;
      const cl = c.l[s] as number;
      const ca = c.a[s] as number;
      const cb = c.b[s] as number;
      const cm = c.m[s] as number;
      // The first pass is a plain Voronoi step whose centroids relax the seeds (one Lloyd
      // iteration towards a centroidal layout); the last pass adds colour, so tiles follow edges.
      const w = iteration === 0 ? 0 : (c.colourWeight[s] as number);
      const r = Math.ceil((seeds.size[s] as number) * 0.5);
      const x0 = Math.max(0, Math.floor(cx - r));
      const x1 = Math.min(width - 1, Math.ceil(cx + r));
      const y0 = Math.max(0, Math.floor(cy - r));
      const y1 = Math.min(height - 1, Math.ceil(cy + r));
      if (w === 0) {
        // Without colour (the relaxation pass, and the background, which becomes the pattern).
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
        continue;
      }
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
            (dx * dx + dy2) * (inverseSpacing2[i] as number) +
            w * (dl * dl + da * da + db * db) +
            MASK_WEIGHT * dm * dm;
          if (d < (distance[i] as number)) {
            distance[i] = d;
            labels[i] = s;
          }
        }
      }
    }
    if (iteration === ITERATIONS - 1) break;
    sums.fill(0);
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
    for (let s = 0; s < k; s++) {
      const count = sums[s * 7] as number;
      if (count === 0) continue;
      // Background seeds keep their ring positions so the rows of the pattern stay neat.
      if (seeds.person[s]) {
        c.x[s] = (sums[s * 7 + 1] as number) / count;
        c.y[s] = (sums[s * 7 + 2] as number) / count;
      }
      c.l[s] = (sums[s * 7 + 3] as number) / count;
      c.a[s] = (sums[s * 7 + 4] as number) / count;
      c.b[s] = (sums[s * 7 + 5] as number) / count;
      c.m[s] = (sums[s * 7 + 6] as number) / count;
    }
  }
  return labels;
}

/**
 * Gives every connected piece its own tile id and folds specks (pieces much smaller than their
 * tile should be) into the neighbour they touch, so no tile is scattered or a crumb.
 */
function enforceConnectivity(
  labels: Int32Array,
  width: number,
  height: number,
  seeds: Seeds,
): { labels: Int32Array; origin: Int32Array; count: number } {
  const n = width * height;
  const out = scratch('tile-labels', Int32Array, n).fill(-1);
  const origin: number[] = [];
  const stack = scratch('flood-stack', Int32Array, n);
  const members = scratch('flood-members', Int32Array, n);
  for (let start = 0; start < n; start++) {
    if ((out[start] as number) >= 0) continue;
    const label = labels[start] as number;
    const x = start % width;
    let adjacent = -1;
    if (x > 0) adjacent = out[start - 1] as number;
    if (adjacent < 0 && start >= width) adjacent = out[start - width] as number;
    const id = origin.length;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    out[start] = id;
    while (top > 0) {
      const i = stack[--top] as number;
      members[size++] = i;
      const ix = i % width;
      if (ix > 0 && out[i - 1] === -1 && labels[i - 1] === label) {
        out[i - 1] = id;
        stack[top++] = i - 1;
      }
      if (ix < width - 1 && out[i + 1] === -1 && labels[i + 1] === label) {
        out[i + 1] = id;
        stack[top++] = i + 1;
      }
      if (i >= width && out[i - width] === -1 && labels[i - width] === label) {
        out[i - width] = id;
        stack[top++] = i - width;
      }
      if (i < n - width && out[i + width] === -1 && labels[i + width] === label) {
        out[i + width] = id;
        stack[top++] = i + width;
      }
    }
    const spacing = label >= 0 ? (seeds.size[label] as number) / 2 : 0;
    const speck = label < 0 || size < Math.max(3, 0.3 * spacing * spacing);
    if (speck && adjacent >= 0) {
      for (let m = 0; m < size; m++) out[members[m] as number] = adjacent;
    } else {
      origin.push(Math.max(label, 0));
    }
  }
  return { labels: out, origin: Int32Array.from(origin), count: origin.length };
}

function measure(half: HalfImage, labels: Int32Array, count: number, origin: Int32Array, seeds: Seeds): Centres {
  const sums = new Float64Array(count * 7);
  const { width, height, lab, mask } = half;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const o = (labels[i] as number) * 7;
      sums[o] = (sums[o] as number) + 1;
      sums[o + 1] = (sums[o + 1] as number) + x;
      sums[o + 2] = (sums[o + 2] as number) + y;
      sums[o + 3] = (sums[o + 3] as number) + (lab[i * 3] as number);
      sums[o + 4] = (sums[o + 4] as number) + (lab[i * 3 + 1] as number);
      sums[o + 5] = (sums[o + 5] as number) + (lab[i * 3 + 2] as number);
      sums[o + 6] = (sums[o + 6] as number) + (mask[i] as number);
    }
  }
  const c: Centres = {
    x: new Float32Array(count),
    y: new Float32Array(count),
    l: new Float32Array(count),
    a: new Float32Array(count),
    b: new Float32Array(count),
    m: new Float32Array(count),
    colourWeight: new Float32Array(count),
  };
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

/**
 * Upsamples the labels. Where the four nearest half-resolution labels disagree, the artwork pixel
 * takes the tile that fits it best by position (in the size map's metric) and colour, so joints
 * run as smooth lines instead of 2-pixel stairs and still keep to the photo's edges.
 */
function refineToFull(half: HalfImage, halfLabels: Int32Array, c: Centres, width: number, height: number): Int32Array {
  const hw = half.width;
  const hh = half.height;
  const labels = scratch('labels', Int32Array, width * height);
  const { inverseSpacing2, mask, lab } = half;
  /** The tile of artwork pixel (x, y), whose half-resolution pixel is (hx, hy). */
  const decide = (x: number, y: number, hx: number, hy: number): number => {
    const nx = x & 1 ? Math.min(hw - 1, hx + 1) : Math.max(0, hx - 1);
    const ny = y & 1 ? Math.min(hh - 1, hy + 1) : Math.max(0, hy - 1);
    const hi = hy * hw + hx;
    const p = halfLabels[hi] as number;
    const q = halfLabels[hy * hw + nx] as number;
    const r = halfLabels[ny * hw + hx] as number;
    const s = halfLabels[ny * hw + nx] as number;
    if (p === q && p === r && p === s) return p;
    const px = (x + 0.5) / 2 - 0.5;
    const py = (y + 0.5) / 2 - 0.5;
    const inv = inverseSpacing2[hi] as number;
    const m = mask[hi] as number;
    const l = lab[hi * 3] as number;
    const a = lab[hi * 3 + 1] as number;
    const b = lab[hi * 3 + 2] as number;
    let best = p;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let candidate = 0; candidate < 4; candidate++) {
      const t = candidate === 0 ? p : candidate === 1 ? q : candidate === 2 ? r : s;
      if (candidate > 0 && (t === p || (candidate > 1 && t === q) || (candidate > 2 && t === r))) continue;
      const dx = px - (c.x[t] as number);
      const dy = py - (c.y[t] as number);
      const dl = l - (c.l[t] as number);
      const da = a - (c.a[t] as number);
      const db = b - (c.b[t] as number);
      const dm = m - (c.m[t] as number);
      const d =
        (dx * dx + dy * dy) * inv +
        (c.colourWeight[t] as number) * (dl * dl + da * da + db * db) +
        MASK_WEIGHT * dm * dm;
      if (d < bestDistance) {
        bestDistance = d;
        best = t;
      }
    }
    return best;
  };
  for (let hy = 0; hy < hh; hy++) {
    const up = Math.max(0, hy - 1) * hw;
    const row = hy * hw;
    const down = Math.min(hh - 1, hy + 1) * hw;
    for (let hx = 0; hx < hw; hx++) {
      const left = Math.max(0, hx - 1);
      const right = Math.min(hw - 1, hx + 1);
      const t = halfLabels[row + hx] as number;
      const o = hy * 2 * width + hx * 2;
      // Inside a tile (all eight neighbours agree) the whole 2×2 block is that tile.
      if (
        halfLabels[row + left] === t &&
        halfLabels[row + right] === t &&
        halfLabels[up + left] === t &&
        halfLabels[up + hx] === t &&
        halfLabels[up + right] === t &&
        halfLabels[down + left] === t &&
        halfLabels[down + hx] === t &&
        halfLabels[down + right] === t
      ) {
        labels[o] = t;
        labels[o + 1] = t;
        labels[o + width] = t;
        labels[o + width + 1] = t;
        continue;
      }
      const x = hx * 2;
      const y = hy * 2;
      labels[o] = decide(x, y, hx, hy);
      labels[o + 1] = decide(x + 1, y, hx, hy);
      labels[o + width] = decide(x, y + 1, hx, hy);
      labels[o + width + 1] = decide(x + 1, y + 1, hx, hy);
    }
  }
  return labels;
}
