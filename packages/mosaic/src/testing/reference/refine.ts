import { type Window, wholeImage } from '../../geometry.js';
import { fillOutside, NO_TILE } from '../../refine.js';
import { type Centres, CORNER, MASK_WEIGHT, type WorkingImage } from '../../slic-metric.js';

/** The JavaScript the engine's WebAssembly `refineLabels` replaced, kept as the reference its test compares with. */

/** Floats per tile in the packed centres: x, y, person share, row cos and sin / size. */
const STRIDE = 5;

/** The centres interleaved, so one tile's fields share a cache line. */
function pack(c: Centres): Float32Array {
  const count = c.x.length;
  const packed = new Float32Array(count * STRIDE);
  for (let t = 0, k = 0; t < count; t++, k += STRIDE) {
    packed[k] = c.x[t] as number;
    packed[k + 1] = c.y[t] as number;
    packed[k + 2] = c.m[t] as number;
    packed[k + 3] = (c.cos[t] as number) * (c.inverseSize[t] as number);
    packed[k + 4] = (c.sin[t] as number) * (c.inverseSize[t] as number);
  }
  return packed;
}

/** How far (px, py) with person share m lies from tile t: its rectangle metric and the mask term. */
function misfit(centres: Float32Array, t: number, px: number, py: number, m: number): number {
  const k = t * STRIDE;
  const dx = px - (centres[k] as number);
  const dy = py - (centres[k + 1] as number);
  const dm = m - (centres[k + 2] as number);
  const cos = centres[k + 3] as number;
  const sin = centres[k + 4] as number;
  const u = Math.abs(dx * cos + dy * sin);
  const w = Math.abs(dy * cos - dx * sin);
  const near = u > w ? w : u;
  const e = (u > w ? u : w) + (near > 0.5 ? CORNER * (near - 0.5) : 0);
  return e * e + MASK_WEIGHT * dm * dm;
}

/**
 * Upsamples the labels. Where the four nearest half-resolution labels disagree, the artwork pixel
 * takes the tile that fits it best by position (in the tile's own square metric) and person mask,
 * so joints run as the straight sides of cut stones instead of 2-pixel stairs. Colour chose the
 * tiles at half resolution already; here it would only fray the sides.
 *
 * Only the half-resolution `region` is upsampled (its edges count as the image's); the artwork
 * pixels outside it are NO_TILE.
 */
export function refineToFull(
  half: WorkingImage,
  halfLabels: Int32Array,
  c: Centres,
  width: number,
  height: number,
  region: Window = wholeImage(half.width, half.height),
): Uint16Array {
  const hw = half.width;
  const { left: x0, top: y0, right: x1, bottom: y1 } = region;
  const labels = new Uint16Array(width * height);
  // A 2×2 block's rows start at even indices, so with an even width each row of the block is one
  // 32-bit word of two equal halves (the same on either byte order).
  const pairs = width % 2 === 0 ? new Uint32Array(labels.buffer, labels.byteOffset, (width * height) >> 1) : undefined;
  const { mask } = half;
  const centres = pack(c);
  for (let hy = y0; hy < y1; hy++) {
    const up = Math.max(y0, hy - 1) * hw;
    const row = hy * hw;
    const down = Math.min(y1 - 1, hy + 1) * hw;
    for (let hx = x0; hx < x1; hx++) {
      const left = hx > x0 ? hx - 1 : x0;
      const right = hx + 1 < x1 ? hx + 1 : hx;
      const t = halfLabels[row + hx] as number;
      const o = hy * 2 * width + hx * 2;
      const n3 = halfLabels[row + left] as number;
      const n5 = halfLabels[row + right] as number;
      const n1 = halfLabels[up + hx] as number;
      const n7 = halfLabels[down + hx] as number;
      // The four neighbours beside, above and below agree: the whole 2×2 block is that tile.
      if (n1 === t && n7 === t && n3 === t && n5 === t) {
        if (pairs) {
          const pair = (t | (t << 16)) >>> 0;
          pairs[o >> 1] = pair;
          pairs[(o + width) >> 1] = pair;
        } else {
          labels[o] = t;
          labels[o + 1] = t;
          labels[o + width] = t;
          labels[o + width + 1] = t;
        }
        continue;
      }
      const hi = row + hx;
      const m = mask[hi] as number;
      // Each artwork pixel of the block lies ¼ half-pixel from its centre and chooses between the
      // block's own tile and the neighbours beside and above or below it on its side; ties go to
      // the earlier candidate, so to the block's own tile first. A tile touching the block only at
      // its corner is left out: weighing it too cost more here and moved a few pixels, with neither
      // rectangularity nor orientation better for it.
      for (let q = 0; q < 4; q++) {
        const right = (q & 1) === 1;
        const below = (q & 2) === 2;
        const h = right ? n5 : n3;
        const v = below ? n7 : n1;
        const at = o + (below ? width : 0) + (right ? 1 : 0);
        if (h === t && v === t) {
          labels[at] = t;
          continue;
        }
        const px = hx + (right ? 0.25 : -0.25);
        const py = hy + (below ? 0.25 : -0.25);
        // A candidate met again (a corner where only two tiles meet) would only tie, so each is
        // weighed once.
        let best = t;
        let bestDistance = misfit(centres, t, px, py, m);
        if (h !== t) {
          const distance = misfit(centres, h, px, py, m);
          if (distance < bestDistance) {
            bestDistance = distance;
            best = h;
          }
        }
        if (v !== t && v !== h && misfit(centres, v, px, py, m) < bestDistance) best = v;
        labels[at] = best;
      }
    }
  }
  // After the blocks: with an odd width a row's last block reaches into the next row's first pixel.
  fillOutside(labels, width, height, region, NO_TILE);
  return labels;
}
