import { endOfRun } from './shared/runs';

/**
 * The tessellation's loops (`src/superpixels.ts`): the 2×2 means of the quarter image, the seeds
 * packed as centres, the SLIC-style assignment of half-resolution pixels to them, the per-tile
 * sums and centres, and the tiles' fields. Every sum and distance is computed in double precision
 * in the JavaScript's order, so both write the same bits and break ties alike.
 */

/** Floats per seed in the packed centres: x, y, L, a, b, person share, colour weight, cos, sin, 1 / size. */
const CENTRE_STRIDE: usize = 10;
/** +∞ as a single's bits. */
const INFINITY_BITS: i32 = 0x7f800000;

/** Doubles per tile in the sums: pixels, Σx, Σy, Σr, Σg, Σb, Σperson. */
const SUM_STRIDE: usize = 7;

/**
 * The 2×2 means of `rgb` (u8 ×3) and `mask` (f32) of a `width`×`height` image, the last row and
 * column repeated where a side is odd, into `outRgb` and `outMask` (ceil(width / 2) per row).
 */
export function quarterMeans(rgb: usize, mask: usize, width: i32, height: i32, outRgb: usize, outMask: usize): void {
  const qw = (width + 1) >> 1;
  const qh = (height + 1) >> 1;
  let q: usize = 0;
  for (let y = 0; y < qh; y++) {
    const row0 = y * 2 * width;
    const row1 = min(height - 1, y * 2 + 1) * width;
    for (let x = 0; x < qw; x++, q++) {
      const x1 = min(width - 1, x * 2 + 1);
      const a = <usize>(row0 + x * 2);
      const b = <usize>(row0 + x1);
      const c = <usize>(row1 + x * 2);
      const d = <usize>(row1 + x1);
      const a3 = rgb + a * 3;
      const b3 = rgb + b * 3;
      const c3 = rgb + c * 3;
      const d3 = rgb + d * 3;
      const q3 = outRgb + q * 3;
      store<u8>(q3, (<u32>load<u8>(a3) + load<u8>(b3) + load<u8>(c3) + load<u8>(d3) + 2) >> 2);
      store<u8>(q3, (<u32>load<u8>(a3, 1) + load<u8>(b3, 1) + load<u8>(c3, 1) + load<u8>(d3, 1) + 2) >> 2, 1);
      store<u8>(q3, (<u32>load<u8>(a3, 2) + load<u8>(b3, 2) + load<u8>(c3, 2) + load<u8>(d3, 2) + 2) >> 2, 2);
      const sum =
        <f64>load<f32>(mask + (a << 2)) +
        <f64>load<f32>(mask + (b << 2)) +
        <f64>load<f32>(mask + (c << 2)) +
        <f64>load<f32>(mask + (d << 2));
      store<f32>(outMask + (q << 2), <f32>(sum * 0.25));
    }
  }
}

/**
 * Assigns each pixel of the half image inside `[left, right) × [top, bottom)` to the nearest of
 * `count` packed centres searched in a window of `window` tile spacings around each into `labels`
 * (i32), with the distances in `distance` (f32): both are reset first, all `pixels` of them.
 * `lab` is the quarter image's CIELAB (`labWidth` per row), each value covering 2×2 pixels here.
 *
 * A centre takes a pixel where it lies nearer than the nearest so far, a choice that follows no
 * pattern: it is made by selecting, not branching, two pixels at a time (an even and an odd one,
 * which share their CIELAB value). Along a row the offsets u and v grow by one step per pixel, in
 * sequence, as in the JavaScript.
 */
export function assignPixels(
  centres: usize,
  count: i32,
  width: i32,
  left: i32,
  top: i32,
  right: i32,
  bottom: i32,
  mask: usize,
  lab: usize,
  labWidth: i32,
  labels: usize,
  distance: usize,
  pixels: i32,
  window: f64,
  corner: f64,
  maskWeight: f64,
): void {
  fillWords(labels, -1, pixels);
  fillWords(distance, INFINITY_BITS, pixels);
  const cornerV = f64x2.splat(corner);
  const weightV = f64x2.splat(maskWeight);
  for (let s = 0; s < count; s++) {
    const k = centres + ((<usize>s * CENTRE_STRIDE) << 2);
    const cx = <f64>load<f32>(k);
    const cy = <f64>load<f32>(k, 4);
    const cl = <f64>load<f32>(k, 8);
    const ca = <f64>load<f32>(k, 12);
    const cb = <f64>load<f32>(k, 16);
    const cm = <f64>load<f32>(k, 20);
    const w = <f64>load<f32>(k, 24);
    const inv = <f64>load<f32>(k, 36);
    const cos = <f64>load<f32>(k, 28) * inv;
    const sin = <f64>load<f32>(k, 32) * inv;
    const r = window / inv;
    const x0 = max(left, <i32>Math.ceil(cx - r));
    const x1 = min(right - 1, <i32>Math.floor(cx + r));
    const y0 = max(top, <i32>Math.ceil(cy - r));
    const y1 = min(bottom - 1, <i32>Math.floor(cy + r));
    const fromX = <f64>x0 - cx;
    const cmV = f64x2.splat(cm);
    const label = i32x4.splat(s);
    for (let y = y0; y <= y1; y++) {
      const dy = <f64>y - cy;
      // u and v (in tile spacings) change by cos and −sin per pixel along the row.
      let u = fromX * cos + dy * sin;
      let v = dy * cos - fromX * sin;
      const row = <usize>(y * width);
      const labRow = lab + ((<usize>((y >> 1) * labWidth) * 3) << 2);
      let x = x0;
      if (x & 1 && x <= x1) {
        const i = row + <usize>x;
        const colour = w !== 0 ? colourTerm(labRow, x, cl, ca, cb, w) : 0;
        takeOne(i, distance, labels, s, placeTerm(u, v, load<f32>(mask + (i << 2)), cm, corner, maskWeight) + colour);
        x++;
        u += cos;
        v -= sin;
      }
      for (; x + 1 <= x1; x += 2) {
        const i = row + <usize>x;
        const u1 = u + cos;
        const v1 = v - sin;
        const us = f64x2.replace_lane(f64x2.splat(u), 1, u1);
        const vs = f64x2.replace_lane(f64x2.splat(v), 1, v1);
        u = u1 + cos;
        v = v1 - sin;
        const au = f64x2.abs(us);
        const av = f64x2.abs(vs);
        // pmin and pmax are Math.min and max on magnitudes (never NaN or −0), as is max(… − 0.5, 0).
        const beyond = f64x2.pmax(f64x2.sub(f64x2.pmin(au, av), f64x2.splat(0.5)), f64x2.splat(0));
        const e = f64x2.add(f64x2.pmax(au, av), f64x2.mul(cornerV, beyond));
        const dm = f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(mask + (i << 2))), cmV);
        let d = f64x2.add(f64x2.mul(e, e), f64x2.mul(f64x2.mul(weightV, dm), dm));
        if (w !== 0) d = f64x2.add(d, f64x2.splat(colourTerm(labRow, x, cl, ca, cb, w)));
        const before = v128.load64_zero(distance + (i << 2));
        // The colour term is never negative, so one comparison after it decides as one before would.
        const nearer = v128.not(f64x2.ge(d, f64x2.promote_low_f32x4(before)));
        const taken = i32x4.shuffle(nearer, nearer, 0, 2, 0, 2);
        v128.store64_lane(distance + (i << 2), v128.bitselect(f32x4.demote_f64x2_zero(d), before, taken), 0);
        v128.store64_lane(labels + (i << 2), v128.bitselect(label, v128.load64_zero(labels + (i << 2)), taken), 0);
      }
      if (x <= x1) {
        const i = row + <usize>x;
        const colour = w !== 0 ? colourTerm(labRow, x, cl, ca, cb, w) : 0;
        takeOne(i, distance, labels, s, placeTerm(u, v, load<f32>(mask + (i << 2)), cm, corner, maskWeight) + colour);
      }
    }
  }
}

/** The tile-frame Chebyshev distance squared (corners counted extra) and the mask term of one pixel. */
function placeTerm(u: f64, v: f64, m: f32, cm: f64, corner: f64, maskWeight: f64): f64 {
  const au = Math.abs(u);
  const av = Math.abs(v);
  const e = Math.max(au, av) + corner * Math.max(Math.min(au, av) - 0.5, 0);
  const dm = <f64>m - cm;
  return e * e + maskWeight * dm * dm;
}

/** The weighted CIELAB distance of pixel column `x` of a row from the centre's colour. */
function colourTerm(labRow: usize, x: i32, cl: f64, ca: f64, cb: f64, w: f64): f64 {
  const o = labRow + ((<usize>(x >> 1) * 3) << 2);
  const dl = <f64>load<f32>(o) - cl;
  const da = <f64>load<f32>(o, 4) - ca;
  const db = <f64>load<f32>(o, 8) - cb;
  return w * (dl * dl + da * da + db * db);
}

/** Gives pixel `i` to centre `s` when `d` is nearer than its nearest so far. */
function takeOne(i: usize, distance: usize, labels: usize, s: i32, d: f64): void {
  const before = load<f32>(distance + (i << 2));
  const nearer = !(d >= <f64>before);
  store<f32>(distance + (i << 2), select<f32>(<f32>d, before, nearer));
  store<i32>(labels + (i << 2), select<i32>(s, load<i32>(labels + (i << 2)), nearer));
}

/**
 * Adds each tile's pixel count, coordinate sums, RGB sums and person share inside `[left, right) ×
 * [top, bottom)` of the half image to `sums` (f64, zeroed beforehand), row by row in runs of one
 * tile, each run's sums added to the tile's once.
 */
export function sumTiles(
  labels: usize,
  width: i32,
  left: i32,
  top: i32,
  right: i32,
  bottom: i32,
  rgb: usize,
  mask: usize,
  sums: usize,
): void {
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    for (let x = left; x < right; ) {
      const t = load<i32>(labels + ((<usize>(row + x)) << 2));
      // Sums of bytes are whole numbers, the same in integers as in the JavaScript's doubles.
      let r: u32 = 0;
      let g: u32 = 0;
      let b: u32 = 0;
      let m: f64 = 0;
      const end = endOfRun(labels + ((<usize>row) << 2), x + 1, right, t);
      for (let i = <usize>(row + x), last = <usize>(row + end); i < last; i++) {
        const p = rgb + i * 3;
        r += load<u8>(p);
        g += load<u8>(p, 1);
        b += load<u8>(p, 2);
        m += <f64>load<f32>(mask + (i << 2));
      }
      const n = <f64>(end - x);
      const o = sums + ((<usize>t * SUM_STRIDE) << 3);
      store<f64>(o, load<f64>(o) + n);
      store<f64>(o, load<f64>(o, 8) + (<f64>(x + end - 1) * n) / 2, 8);
      store<f64>(o, load<f64>(o, 16) + <f64>y * n, 16);
      store<f64>(o, load<f64>(o, 24) + <f64>r, 24);
      store<f64>(o, load<f64>(o, 32) + <f64>g, 32);
      store<f64>(o, load<f64>(o, 40) + <f64>b, 40);
      store<f64>(o, load<f64>(o, 48) + m, 48);
      x = end;
    }
  }
}

/** Sets `count` 32-bit words from `at` to `value`, four at a time. */
function fillWords(at: usize, value: i32, count: i32): void {
  const four = i32x4.splat(value);
  let i = 0;
  for (; i + 4 <= count; i += 4) v128.store(at + ((<usize>i) << 2), four);
  for (; i < count; i++) store<i32>(at + ((<usize>i) << 2), value);
}

/**
 * Packs `count` seeds as centres for `assignPixels`: the place of seed (x, y) in half-resolution
 * pixels, clamped to the `width`×`height` half image, the quarter image's CIELAB under it, person
 * share, colour weight (0 for the background, `broad` from size `broadFrom`, else `narrow`), row
 * and 1 / size in half-resolution pixels. Seeds' fields are singles but `person` (bytes).
 */
export function seedCentres(
  count: i32,
  xs: usize,
  ys: usize,
  sizes: usize,
  person: usize,
  cosines: usize,
  sines: usize,
  width: i32,
  height: i32,
  lab: usize,
  labWidth: i32,
  narrow: f64,
  broad: f64,
  broadFrom: f64,
  centres: usize,
): void {
  for (let s = 0; s < count; s++) {
    const field = (<usize>s) << 2;
    const k = centres + ((<usize>s * CENTRE_STRIDE) << 2);
    // Artwork pixel x lies at half-resolution coordinate (x − 0.5) / 2.
    const sx = Math.min(<f64>(width - 1), Math.max(0, (<f64>load<f32>(xs + field) - 0.5) / 2));
    const sy = Math.min(<f64>(height - 1), Math.max(0, (<f64>load<f32>(ys + field) - 0.5) / 2));
    store<f32>(k, <f32>sx);
    store<f32>(k, <f32>sy, 4);
    const q = lab + ((<usize>(((<i32>Math.round(sy) >> 1) * labWidth + (<i32>Math.round(sx) >> 1)) * 3)) << 2);
    store<f32>(k, load<f32>(q), 8);
    store<f32>(k, load<f32>(q, 4), 12);
    store<f32>(k, load<f32>(q, 8), 16);
    const isPerson = load<u8>(person + <usize>s);
    const size = <f64>load<f32>(sizes + field);
    store<f32>(k, <f32>isPerson, 20);
    store<f32>(k, <f32>weightOf(isPerson, size, narrow, broad, broadFrom), 24);
    store<f32>(k, load<f32>(cosines + field), 28);
    store<f32>(k, load<f32>(sines + field), 32);
    store<f32>(k, <f32>(2 / size), 36);
  }
}

/**
 * Each of `count` tiles' centre from its sums: centroid, mean RGB (rounded, into `means`), person
 * share, and its seed's (`origin`) colour weight, row and 1 / size, into the centres' fields.
 */
export function tileCentres(
  count: i32,
  sums: usize,
  origin: usize,
  sizes: usize,
  person: usize,
  cosines: usize,
  sines: usize,
  narrow: f64,
  broad: f64,
  broadFrom: f64,
  xs: usize,
  ys: usize,
  means: usize,
  shares: usize,
  weights: usize,
  cosOut: usize,
  sinOut: usize,
  inverseSizes: usize,
): void {
  for (let t = 0; t < count; t++) {
    const o = sums + ((<usize>t * SUM_STRIDE) << 3);
    const field = (<usize>t) << 2;
    const pixels = Math.max(1, load<f64>(o));
    store<f32>(xs + field, <f32>(load<f64>(o, 8) / pixels));
    store<f32>(ys + field, <f32>(load<f64>(o, 16) / pixels));
    const mean = means + <usize>t * 3;
    store<u8>(mean, <u8>(<i32>Math.round(load<f64>(o, 24) / pixels)));
    store<u8>(mean, <u8>(<i32>Math.round(load<f64>(o, 32) / pixels)), 1);
    store<u8>(mean, <u8>(<i32>Math.round(load<f64>(o, 40) / pixels)), 2);
    store<f32>(shares + field, <f32>(load<f64>(o, 48) / pixels));
    const s = (<usize>load<i32>(origin + field)) << 2;
    const size = <f64>load<f32>(sizes + s);
    store<f32>(weights + field, <f32>weightOf(load<u8>(person + (s >> 2)), size, narrow, broad, broadFrom));
    store<f32>(cosOut + field, load<f32>(cosines + s));
    store<f32>(sinOut + field, load<f32>(sines + s));
    store<f32>(inverseSizes + field, <f32>(2 / size));
  }
}

/** `colourWeight` of `slic-metric.ts`, its two weights given. */
function weightOf(person: u8, size: f64, narrow: f64, broad: f64, broadFrom: f64): f64 {
  if (person !== 1) return 0;
  return size >= broadFrom ? broad : narrow;
}

/**
 * The tiles' fields for the painter: each of `count` tiles' spacing, outline and line flags from
 * its seed (`origin`), centroid in artwork pixels (half-resolution x is artwork 2x + 1) and CIELAB
 * interleaved.
 */
export function tileFields(
  count: i32,
  origin: usize,
  sizes: usize,
  outlines: usize,
  lines: usize,
  xs: usize,
  ys: usize,
  ls: usize,
  as: usize,
  bs: usize,
  spacing: usize,
  outline: usize,
  line: usize,
  x: usize,
  y: usize,
  lab: usize,
): void {
  for (let t = 0; t < count; t++) {
    const field = (<usize>t) << 2;
    const s = <usize>load<i32>(origin + field);
    store<f32>(spacing + field, load<f32>(sizes + (s << 2)));
    store<u8>(outline + <usize>t, load<u8>(outlines + s));
    store<u8>(line + <usize>t, load<u8>(lines + s));
    store<f32>(x + field, <f32>(<f64>load<f32>(xs + field) * 2 + 1));
    store<f32>(y + field, <f32>(<f64>load<f32>(ys + field) * 2 + 1));
    const o = lab + field * 3;
    store<f32>(o, load<f32>(ls + field));
    store<f32>(o, load<f32>(as + field), 4);
    store<f32>(o, load<f32>(bs + field), 8);
  }
}

/** Splits `count` interleaved CIELAB triples at `lab` into the fields `ls`, `as` and `bs`. */
export function splitLab(lab: usize, count: i32, ls: usize, as: usize, bs: usize): void {
  for (let t = 0; t < count; t++) {
    const field = (<usize>t) << 2;
    const o = lab + field * 3;
    store<f32>(ls + field, load<f32>(o));
    store<f32>(as + field, load<f32>(o, 4));
    store<f32>(bs + field, load<f32>(o, 8));
  }
}

// Read by `src/superpixels.ts`, which packs the centres for the loops.
export { CENTRE_STRIDE as centreStride };
