import { type Window, wholeImage } from '../../geometry.js';
import { NO_TILE } from '../../refine.js';
import type { Seeds } from '../../seeds.js';
import {
  type Centres,
  CORNER,
  colourWeight,
  createCentres,
  MASK_WEIGHT,
  type WorkingImage,
} from '../../slic-metric.js';
import { cutOf, halfOf, type Tiles, WINDOW } from '../../superpixels.js';
import { imageToLab } from './colour.js';
import { enforceConnectivity } from './connectivity.js';
import { refineToFull } from './refine.js';

/**
 * The JavaScript the engine's WebAssembly `quarterMeans`, `assignPixels` and `sumTiles` replaced
 * (with the references of the loops the tessellation calls), kept as the reference its tests compare with.
 */

/**
 * Seeds laid in rows grow into square tesserae: each pixel of the half-resolution image joins the
 * seed nearest by the tile-frame Chebyshev distance (see `slic-metric.ts`), CIELAB colour and the
 * person mask, searched SLIC-style in a window around each seed. Tile borders are then redrawn at
 * full resolution.
 */

/**
 * The tiles of the seeds, cut from the artwork's part `within` only (default: all of it); the
 * seeds whose stones lie wholly outside it make no tile.
 */
export function buildTiles(
  half: WorkingImage,
  seeds: Seeds,
  width: number,
  height: number,
  within: Window = wholeImage(width, height),
): Tiles {
  const region = halfOf(within, half.width, half.height);
  const raw = assign(half, seeds, centresOf(half, seeds), region);
  const { labels: halfLabels, origin, count } = enforceConnectivity(raw, half.width, half.height, seeds, region);
  // Tiles are at least 7.5 px across, so a 1080×1350 artwork has far fewer than 65,535.
  if (count >= NO_TILE) throw new Error(`${count} tiles do not fit 16-bit labels`);
  const centres = measure(half, halfLabels, count, origin, seeds, region);
  const labels = refineToFull(half, halfLabels, centres, width, height, region);
  const spacing = new Float32Array(count);
  const outline = new Uint8Array(count);
  const line = new Uint8Array(count);
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const lab = new Float32Array(count * 3);
  for (let t = 0; t < count; t++) {
    const s = origin[t] as number;
    spacing[t] = seeds.size[s] as number;
    outline[t] = seeds.outline[s] as number;
    line[t] = seeds.line[s] as number;
    x[t] = (centres.x[t] as number) * 2 + 1;
    y[t] = (centres.y[t] as number) * 2 + 1;
    lab[t * 3] = centres.l[t] as number;
    lab[t * 3 + 1] = centres.a[t] as number;
    lab[t * 3 + 2] = centres.b[t] as number;
  }
  const cut = cutOf(region, width, height);
  return {
    count,
    labels,
    cut,
    person: centres.m,
    outline,
    seed: origin,
    line,
    spacing,
    x,
    y,
    cos: centres.cos,
    sin: centres.sin,
    lab,
  };
}

/**
 * The photo at a quarter of the artwork's resolution (2×2 means of the half-resolution colour and
 * person mask), in CIELAB, for the size map, the guides and the colour term of the tiles' growth.
 * Converting a quarter as many pixels to CIELAB costs a quarter as much, and a tile is at least
 * two quarter pixels across.
 */
export function quarterOf(
  rgb: Uint8Array,
  mask: Float32Array,
  width: number,
  height: number,
): { width: number; height: number; lab: Float32Array; mask: Float32Array } {
  const qw = Math.ceil(width / 2);
  const qh = Math.ceil(height / 2);
  const quarterRgb = new Uint8Array(qw * qh * 3);
  const quarterMask = new Float32Array(qw * qh);
  for (let y = 0, q = 0; y < qh; y++) {
    const row0 = y * 2 * width;
    const row1 = Math.min(height - 1, y * 2 + 1) * width;
    for (let x = 0; x < qw; x++, q++) {
      const x1 = Math.min(width - 1, x * 2 + 1);
      const a = row0 + x * 2;
      const b = row0 + x1;
      const c = row1 + x * 2;
      const d = row1 + x1;
      // The three channels written out: the loop over them cost as much as the sums.
      const a3 = a * 3;
      const b3 = b * 3;
      const c3 = c * 3;
      const d3 = d * 3;
      const q3 = q * 3;
      quarterRgb[q3] = ((rgb[a3] as number) + (rgb[b3] as number) + (rgb[c3] as number) + (rgb[d3] as number) + 2) >> 2;
      quarterRgb[q3 + 1] =
        ((rgb[a3 + 1] as number) + (rgb[b3 + 1] as number) + (rgb[c3 + 1] as number) + (rgb[d3 + 1] as number) + 2) >>
        2;
      quarterRgb[q3 + 2] =
        ((rgb[a3 + 2] as number) + (rgb[b3 + 2] as number) + (rgb[c3 + 2] as number) + (rgb[d3 + 2] as number) + 2) >>
        2;
      quarterMask[q] = ((mask[a] as number) + (mask[b] as number) + (mask[c] as number) + (mask[d] as number)) * 0.25;
    }
  }
  const lab = imageToLab(quarterRgb, new Float32Array(qw * qh * 3));
  return { width: qw, height: qh, lab, mask: quarterMask };
}

/** A seed's search window: whole pixels within `r` of its centre, inside the region cut. */
interface SearchWindow {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function windowAround(cx: number, cy: number, r: number, { left, top, right, bottom }: Window): SearchWindow {
  return {
    x0: Math.max(left, Math.ceil(cx - r)),
    x1: Math.min(right - 1, Math.floor(cx + r)),
    y0: Math.max(top, Math.ceil(cy - r)),
    y1: Math.min(bottom - 1, Math.floor(cy + r)),
  };
}

/** Each seed as a centre: its place in half-resolution pixels, row, size and the colour under it. */
function centresOf(half: WorkingImage, seeds: Seeds): Centres {
  const c = createCentres(seeds.count);
  const { width, height, lab } = half;
  for (let s = 0; s < seeds.count; s++) {
    // Artwork pixel x lies at half-resolution coordinate (x − 0.5) / 2.
    const sx = Math.min(width - 1, Math.max(0, ((seeds.x[s] as number) - 0.5) / 2));
    const sy = Math.min(height - 1, Math.max(0, ((seeds.y[s] as number) - 0.5) / 2));
    c.x[s] = sx;
    c.y[s] = sy;
    const q = ((Math.round(sy) >> 1) * half.labWidth + (Math.round(sx) >> 1)) * 3;
    c.l[s] = lab[q] as number;
    c.a[s] = lab[q + 1] as number;
    c.b[s] = lab[q + 2] as number;
    c.m[s] = seeds.person[s] as number;
    // The background becomes the campaign pattern, so its tiles ignore the room's colours.
    c.colourWeight[s] = colourWeight(seeds.person[s] === 1, seeds.size[s] as number);
    c.cos[s] = seeds.cos[s] as number;
    c.sin[s] = seeds.sin[s] as number;
    c.inverseSize[s] = 2 / (seeds.size[s] as number);
  }
  return c;
}

/**
 * The assignment at half resolution: each pixel joins the centre nearest by the tile-frame
 * Chebyshev distance, person mask and, for the visitor's tiles, colour, so tiles stay square
 * along their rows and still keep to the photo's strong edges.
 */
function assign(half: WorkingImage, seeds: Seeds, c: Centres, region: Window): Int32Array {
  const { width, height, lab, mask, labWidth } = half;
  const n = width * height;
  const labels = new Int32Array(n).fill(-1);
  const distance = new Float32Array(n).fill(Number.POSITIVE_INFINITY);
  for (let s = 0; s < seeds.count; s++) {
    const cx = c.x[s] as number;
    const cy = c.y[s] as number;
    const cl = c.l[s] as number;
    const ca = c.a[s] as number;
    const cb = c.b[s] as number;
    const cm = c.m[s] as number;
    const w = c.colourWeight[s] as number;
    const inv = c.inverseSize[s] as number;
    const cos = (c.cos[s] as number) * inv;
    const sin = (c.sin[s] as number) * inv;
    const { x0, x1, y0, y1 } = windowAround(cx, cy, WINDOW / inv, region);
    for (let y = y0; y <= y1; y++) {
      const dy = y - cy;
      // u and v (in tile spacings) change by cos and −sin per pixel along the row.
      let u = (x0 - cx) * cos + dy * sin;
      let v = dy * cos - (x0 - cx) * sin;
      for (let x = x0, i = y * width + x0; x <= x1; x++, i++, u += cos, v -= sin) {
        // Math.abs, min and max compile without branches; the comparisons they replace follow no pattern.
        const au = Math.abs(u);
        const av = Math.abs(v);
        const e = Math.max(au, av) + CORNER * Math.max(Math.min(au, av) - 0.5, 0);
        const dm = (mask[i] as number) - cm;
        let d = e * e + MASK_WEIGHT * dm * dm;
        if (w !== 0) {
          const o = ((y >> 1) * labWidth + (x >> 1)) * 3;
          const dl = (lab[o] as number) - cl;
          const da = (lab[o + 1] as number) - ca;
          const db = (lab[o + 2] as number) - cb;
          d += w * (dl * dl + da * da + db * db);
        }
        // The colour term is never negative, so one comparison after it decides as one before would.
        if (d >= (distance[i] as number)) continue;
        distance[i] = d;
        labels[i] = s;
      }
    }
  }
  return labels;
}

function measure(
  half: WorkingImage,
  labels: Int32Array,
  count: number,
  origin: Int32Array,
  seeds: Seeds,
  { left, top, right, bottom }: Window,
): Centres {
  const sums = new Float64Array(count * 7).fill(0);
  const { width, rgb, mask } = half;
  // Row by row in runs of one tile: the sums are added to the tile's once per run.
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    for (let x = left; x < right; ) {
      const t = labels[row + x] as number;
      let r = 0;
      let g = 0;
      let b = 0;
      let m = 0;
      let end = x;
      for (let i = row + x; end < right && labels[i] === t; end++, i++) {
        r += rgb[i * 3] as number;
        g += rgb[i * 3 + 1] as number;
        b += rgb[i * 3 + 2] as number;
        m += mask[i] as number;
      }
      const n = end - x;
      const o = t * 7;
      sums[o] = (sums[o] as number) + n;
      sums[o + 1] = (sums[o + 1] as number) + ((x + end - 1) * n) / 2;
      sums[o + 2] = (sums[o + 2] as number) + y * n;
      sums[o + 3] = (sums[o + 3] as number) + r;
      sums[o + 4] = (sums[o + 4] as number) + g;
      sums[o + 5] = (sums[o + 5] as number) + b;
      sums[o + 6] = (sums[o + 6] as number) + m;
      x = end;
    }
  }
  const c = createCentres(count);
  // Each tile's mean colour, averaged in sRGB and converted once per tile.
  const means = new Uint8Array(count * 3);
  for (let t = 0; t < count; t++) {
    const size = Math.max(1, sums[t * 7] as number);
    c.x[t] = (sums[t * 7 + 1] as number) / size;
    c.y[t] = (sums[t * 7 + 2] as number) / size;
    means[t * 3] = Math.round((sums[t * 7 + 3] as number) / size);
    means[t * 3 + 1] = Math.round((sums[t * 7 + 4] as number) / size);
    means[t * 3 + 2] = Math.round((sums[t * 7 + 5] as number) / size);
    c.m[t] = (sums[t * 7 + 6] as number) / size;
    const s = origin[t] as number;
    c.colourWeight[t] = colourWeight(seeds.person[s] === 1, seeds.size[s] as number);
    c.cos[t] = seeds.cos[s] as number;
    c.sin[t] = seeds.sin[s] as number;
    c.inverseSize[t] = 2 / (seeds.size[s] as number);
  }
  const lab = imageToLab(means);
  for (let t = 0; t < count; t++) {
    c.l[t] = lab[t * 3] as number;
    c.a[t] = lab[t * 3 + 1] as number;
    c.b[t] = lab[t * 3 + 2] as number;
  }
  return c;
}
