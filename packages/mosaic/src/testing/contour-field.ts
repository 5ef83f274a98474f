/**
 * The photo's contours as a mosaicist would follow them: where the strong edges are and which way
 * each runs. Edge tangents come from a smoothed structure tensor of the luma; every pixel learns
 * its nearest strong edge pixel, so a tessera can be compared with the contour beside it.
 */

/** Pre-smoothing of the luma: three box passes of radius 1 (≈ Gaussian σ 1.4). */
const LUMA_RADIUS = 1;
/** The tensor is averaged over a 9×9 box (σ ≈ 2.6 px), about a small tessera. */
const TENSOR_RADIUS = 4;
/** Share of the considered pixels counted as strong edges: the top 10 % of gradient magnitude. */
export const STRONG_EDGE_SHARE = 0.1;
/** Never below this gradient (luma levels per pixel, Sobel / 8): a flat photo has no contours. */
export const MIN_EDGE_GRADIENT = 8;
/** Coherence (λ1 − λ2) / (λ1 + λ2) below which a place has no single direction (a corner, texture). */
export const MIN_COHERENCE = 0.5;

export interface ContourField {
  /** 1 on strong edge pixels. */
  strong: Uint8Array;
  /** Contour (edge tangent) direction at each strong edge pixel, radians in [0, π). */
  tangent: Float32Array;
  /** The gradient threshold that was used. */
  threshold: number;
  /** Index of the nearest strong edge pixel of each pixel, −1 when there is none. */
  nearest: Int32Array;
}

/** Luma (Rec. 601) of an RGB image. */
export function lumaOf(rgb: Uint8Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) {
    out[i] = 0.299 * (rgb[i * 3] as number) + 0.587 * (rgb[i * 3 + 1] as number) + 0.114 * (rgb[i * 3 + 2] as number);
  }
  return out;
}

/** Three passes of a box blur in x and y: close to a Gaussian, linear time whatever the radius. */
function smooth(image: Float32Array, width: number, height: number, radius: number): Float32Array {
  const a = image.slice();
  const b = new Float32Array(image.length);
  const span = 2 * radius + 1;
  const across = (from: Float32Array, to: Float32Array) => {
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const last = row + width - 1;
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += from[row + Math.min(width - 1, Math.max(0, k))] as number;
      for (let x = 0; x < width; x++) {
        to[row + x] = sum / span;
        const add = row + x + radius + 1;
        const drop = row + x - radius;
        sum += (from[add <= last ? add : last] as number) - (from[drop >= row ? drop : row] as number);
      }
    }
  };
  // Down the columns a whole row at a time, so memory is read in order.
  const sums = new Float32Array(width);
  const down = (from: Float32Array, to: Float32Array) => {
    sums.fill(0);
    for (let k = -radius; k <= radius; k++) {
      const row = Math.min(height - 1, Math.max(0, k)) * width;
      for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (from[row + x] as number);
    }
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const add = Math.min(height - 1, y + radius + 1) * width;
      const drop = Math.max(0, y - radius) * width;
      for (let x = 0; x < width; x++) {
        to[row + x] = (sums[x] as number) / span;
        sums[x] = (sums[x] as number) + (from[add + x] as number) - (from[drop + x] as number);
      }
    }
  };
  for (let k = 0; k < 3; k++) {
    across(a, b);
    down(b, a);
  }
  return a;
}

/**
 * Strong edges of `luma` among the pixels marked 1 in `consider` (the threshold is a share of
 * those pixels' gradients), their tangents, and each pixel's nearest strong edge pixel.
 */
export function contourField(
  luma: Float32Array,
  width: number,
  height: number,
  consider: Uint8Array = new Uint8Array(width * height).fill(1),
): ContourField {
  const soft = smooth(luma, width, height, LUMA_RADIUS);
  const n = width * height;
  // The tensor's components are only needed around strong edges: summed-area tables give any
  // pixel's box average without smoothing whole images.
  const stride = width + 1;
  const ixx = new Float64Array(stride * (height + 1));
  const ixy = new Float64Array(stride * (height + 1));
  const iyy = new Float64Array(stride * (height + 1));
  const magnitude = new Float32Array(n);
  for (let y = 0; y < height; y++) {
    let rxx = 0;
    let rxy = 0;
    let ryy = 0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (y > 0 && y < height - 1 && x > 0 && x < width - 1) {
        const nw = soft[i - width - 1] as number;
        const ne = soft[i - width + 1] as number;
        const sw = soft[i + width - 1] as number;
        const se = soft[i + width + 1] as number;
        const gx = (ne + 2 * (soft[i + 1] as number) + se - nw - 2 * (soft[i - 1] as number) - sw) / 8;
        const gy = (sw + 2 * (soft[i + width] as number) + se - nw - 2 * (soft[i - width] as number) - ne) / 8;
        rxx += gx * gx;
        rxy += gx * gy;
        ryy += gy * gy;
        magnitude[i] = Math.sqrt(gx * gx + gy * gy);
      }
      const o = (y + 1) * stride + x + 1;
      ixx[o] = (ixx[o - stride] as number) + rxx;
      ixy[o] = (ixy[o - stride] as number) + rxy;
      iyy[o] = (iyy[o - stride] as number) + ryy;
    }
  }
  const boxSum = (table: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    (table[y1 * stride + x1] as number) -
    (table[y0 * stride + x1] as number) -
    (table[y1 * stride + x0] as number) +
    (table[y0 * stride + x0] as number);

  // The threshold: a quantile of the considered pixels' gradients, from a histogram in ¼-level steps.
  const bins = new Uint32Array(1024);
  let considered = 0;
  for (let i = 0; i < n; i++) {
    if (!consider[i]) continue;
    const b = Math.min(1023, Math.floor((magnitude[i] as number) * 4));
    bins[b] = (bins[b] as number) + 1;
    considered++;
  }
  let above = 0;
  let bin = 1023;
  while (bin > 0 && above + (bins[bin] as number) <= considered * STRONG_EDGE_SHARE) above += bins[bin--] as number;
  const threshold = Math.max(MIN_EDGE_GRADIENT, (bin + 1) / 4);

  const strong = new Uint8Array(n);
  const tangent = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if ((magnitude[i] as number) < threshold || !consider[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    const x0 = Math.max(0, x - TENSOR_RADIUS);
    const y0 = Math.max(0, y - TENSOR_RADIUS);
    const x1 = Math.min(width, x + TENSOR_RADIUS + 1);
    const y1 = Math.min(height, y + TENSOR_RADIUS + 1);
    const a = boxSum(ixx, x0, y0, x1, y1);
    const b = boxSum(ixy, x0, y0, x1, y1);
    const c = boxSum(iyy, x0, y0, x1, y1);
    const trace = a + c;
    const coherence = trace > 0 ? Math.sqrt((a - c) ** 2 + 4 * b * b) / trace : 0;
    if (coherence < MIN_COHERENCE) continue;
    strong[i] = 1;
    // The gradient's dominant direction; the contour runs across it.
    const direction = 0.5 * Math.atan2(2 * b, a - c) + Math.PI / 2;
    tangent[i] = ((direction % Math.PI) + Math.PI) % Math.PI;
  }
  return { strong, tangent, threshold, nearest: nearestMarked(strong, width, height) };
}

/**
 * For every pixel, the index of the nearest marked pixel (−1 if none): two raster sweeps passing
 * each neighbour's nearest pixel on (Danielsson's vector propagation; off by a fraction of a pixel
 * at worst, far below a tessera's width).
 */
export function nearestMarked(marked: Uint8Array, width: number, height: number): Int32Array {
  const n = width * height;
  const nearest = new Int32Array(n).fill(-1);
  // The nearest marked pixel's coordinates, kept beside its index so no division is needed.
  const nx = new Int32Array(n);
  const ny = new Int32Array(n);
  const distance = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  for (let i = 0; i < n; i++) {
    if (!marked[i]) continue;
    nearest[i] = i;
    nx[i] = i % width;
    ny[i] = Math.floor(i / width);
    distance[i] = 0;
  }
  const offer = (i: number, x: number, y: number, from: number) => {
    const source = nearest[from] as number;
    if (source < 0 || source === nearest[i]) return;
    const dx = (nx[from] as number) - x;
    const dy = (ny[from] as number) - y;
    const d = dx * dx + dy * dy;
    if (d < (distance[i] as number)) {
      distance[i] = d;
      nearest[i] = source;
      nx[i] = nx[from] as number;
      ny[i] = ny[from] as number;
    }
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x > 0) offer(i, x, y, i - 1);
      if (y > 0) {
        offer(i, x, y, i - width);
        if (x > 0) offer(i, x, y, i - width - 1);
        if (x < width - 1) offer(i, x, y, i - width + 1);
      }
    }
    for (let x = width - 2; x >= 0; x--) offer(y * width + x, x, y, y * width + x + 1);
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (x < width - 1) offer(i, x, y, i + 1);
      if (y < height - 1) {
        offer(i, x, y, i + width);
        if (x > 0) offer(i, x, y, i + width - 1);
        if (x < width - 1) offer(i, x, y, i + width + 1);
      }
    }
    for (let x = 1; x < width; x++) offer(y * width + x, x, y, y * width + x - 1);
  }
  return nearest;
}
