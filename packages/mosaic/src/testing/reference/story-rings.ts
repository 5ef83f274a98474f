import { STORY_LAYOUT } from '../../layout.js';
import { CHIP, type Field, FREE, REACH, type RingSeed, SPACING } from '../../story-rings.js';

/** The JavaScript the engine's WebAssembly story loops replaced, kept as the reference their test compares with. */

/**
 * Gives each free pixel of the field its nearest seed's tile by the Chebyshev distance in the
 * seed's ring frame, as the 4:5's background is cut: square stones laid along the rings. Any other
 * label (a kept tile, the plaque) stays, so a seed whose place a kept tile fills cuts a stone from
 * what is left around it. Rather than search the seeds for each pixel, each seed paints its tile
 * over its own oriented square, row by row, keeping the nearer seed where squares overlap (a
 * distance buffer holds each claimed pixel's nearest so far). `free` is how many free pixels the
 * field has: should a square miss any, the nearest seed around takes them.
 */
export function assignNearest(labels: Uint16Array, field: Field, seeds: RingSeed[], first: number, free: number): void {
  const { width, offset } = STORY_LAYOUT;
  const { from, to, left, right, mixed } = field;
  const span = right - left;
  const rows = to - from;
  const distance = new Float32Array(span * rows);
  // Rows with no kept tile start out free: no label needs checking there.
  const unclaimed = Number.POSITIVE_INFINITY;
  for (let y = 0; y < rows; y++) if (mixed[y] === 0) distance.fill(unclaimed, y * span, (y + 1) * span);
  // Each seed's pixels, counted where kept tiles may cut its stone short.
  const area = new Int32Array(seeds.length);
  const within = new Uint8Array(seeds.length);
  const reach = REACH * SPACING;
  const top = from - offset;
  const limit = first + seeds.length;
  let claimed = 0;
  for (let s = 0; s < seeds.length; s++) {
    const { x: sx, y: sy, cos, sin, tile } = seeds[s] as RingSeed;
    // The square's bounding rows, then on each row the columns inside both of its slabs.
    const extent = reach * (Math.abs(cos) + Math.abs(sin));
    const y0 = Math.max(0, Math.ceil(sy - extent - top - 0.5));
    const y1 = Math.min(rows - 1, Math.floor(sy + extent - top - 0.5));
    within[s] = mixed.subarray(y0, y1 + 1).every((m) => m === 1) ? 1 : 0;
    let own = 0;
    for (let y = y0; y <= y1; y++) {
      const dy = top + y + 0.5 - sy;
      // |dx·cos + dy·sin| ≤ reach and |dy·cos − dx·sin| ≤ reach, solved for dx.
      let lo = -extent;
      let hi = extent;
      if (Math.abs(cos) > 1e-9) {
        const a = (-reach - dy * sin) / cos;
        const b = (reach - dy * sin) / cos;
        lo = Math.max(lo, Math.min(a, b));
        hi = Math.min(hi, Math.max(a, b));
      }
      if (Math.abs(sin) > 1e-9) {
        const a = (dy * cos - reach) / sin;
        const b = (dy * cos + reach) / sin;
        lo = Math.max(lo, Math.min(a, b));
        hi = Math.min(hi, Math.max(a, b));
      }
      const x0 = Math.max(left, Math.ceil(sx + lo - 0.5));
      const x1 = Math.min(right - 1, Math.floor(sx + hi - 0.5));
      const row = y * span - left;
      const out = (from + y) * width;
      const alongY = dy * sin;
      const acrossY = dy * cos;
      if (mixed[y] === 0) {
        for (let x = x0; x <= x1; x++) {
          const dx = x + 0.5 - sx;
          const u = Math.abs(dx * cos + alongY);
          const v = Math.abs(acrossY - dx * sin);
          const d = u > v ? u : v;
          const before = distance[row + x] as number;
          if (d < before) {
            if (before === unclaimed) claimed++;
            distance[row + x] = d;
            labels[out + x] = tile;
          }
        }
        continue;
      }
      for (let x = x0; x <= x1; x++) {
        const l = labels[out + x] as number;
        if (l !== FREE && (l < first || l >= limit)) continue;
        const dx = x + 0.5 - sx;
        const u = Math.abs(dx * cos + alongY);
        const v = Math.abs(acrossY - dx * sin);
        const d = u > v ? u : v;
        if (l === FREE) {
          claimed++;
        } else if (d < (distance[row + x] as number)) {
          area[l - first] = (area[l - first] as number) - 1;
        } else continue;
        distance[row + x] = d;
        labels[out + x] = tile;
        own++;
      }
    }
    area[s] = (area[s] as number) + own;
  }
  if (claimed < free) fillUnreached(labels, field, seeds, first);
  mergeChips(labels, field, seeds, first, area, within);
}

/** Each chip's pixels go to the new stone it borders most (a chip among kept tiles only stays). */
function mergeChips(
  labels: Uint16Array,
  field: Field,
  seeds: RingSeed[],
  first: number,
  area: Int32Array,
  within: Uint8Array,
): void {
  const { width, offset } = STORY_LAYOUT;
  const chip = CHIP * SPACING * SPACING;
  const limit = first + seeds.length;
  const reach = REACH * SPACING;
  const votes = new Map<number, number>();
  const isChip = (s: number) => within[s] === 1 && (area[s] as number) < chip;
  const vote = (l: number, tile: number) => {
    if (l !== tile && l >= first && l < limit && !isChip(l - first)) votes.set(l, (votes.get(l) ?? 0) + 1);
  };
  for (let s = 0; s < seeds.length; s++) {
    const size = area[s] as number;
    if (within[s] === 0 || size === 0 || size >= chip) continue;
    const { x: sx, y: sy, cos, sin, tile } = seeds[s] as RingSeed;
    // The seed's square's bounds: no pixel of its tile lies beyond them.
    const extent = Math.ceil(reach * (Math.abs(cos) + Math.abs(sin))) + 1;
    const x0 = Math.max(field.left + 1, Math.floor(sx) - extent);
    const x1 = Math.min(field.right - 1, Math.ceil(sx) + extent);
    const y0 = Math.max(field.from + 1, Math.floor(sy) + offset - extent);
    const y1 = Math.min(field.to - 1, Math.ceil(sy) + offset + extent);
    votes.clear();
    for (let y = y0; y < y1; y++) {
      for (let x = x0, i = y * width + x0; x < x1; x++, i++) {
        if (labels[i] !== tile) continue;
        vote(labels[i - 1] as number, tile);
        vote(labels[i + 1] as number, tile);
        vote(labels[i - width] as number, tile);
        vote(labels[i + width] as number, tile);
      }
    }
    let into = -1;
    let most = 0;
    for (const [l, count] of votes) {
      if (count > most) {
        most = count;
        into = l;
      }
    }
    if (into < 0) continue;
    for (let y = y0; y < y1; y++) {
      for (let x = x0, i = y * width + x0; x < x1; x++, i++) if (labels[i] === tile) labels[i] = into;
    }
    area[into - first] = (area[into - first] as number) + size;
    area[s] = 0;
  }
}

/** Free pixels no square reached join the nearest seed around them (searched by buckets of one spacing). */
function fillUnreached(labels: Uint16Array, field: Field, seeds: RingSeed[], first: number): void {
  const { width, offset } = STORY_LAYOUT;
  const columns = Math.ceil(width / SPACING) + 4;
  const buckets = new Map<number, RingSeed[]>();
  const bucketOf = (x: number, y: number) => (Math.floor(y / SPACING) + 2) * columns + Math.floor(x / SPACING) + 2;
  for (const seed of seeds) {
    const k = bucketOf(seed.x, seed.y + offset);
    const list = buckets.get(k);
    if (list) list.push(seed);
    else buckets.set(k, [seed]);
  }
  for (let y = field.from; y < field.to; y++) {
    for (let x = field.left, i = y * width + x; x < field.right; x++, i++) {
      if (labels[i] !== FREE) continue;
      const px = x + 0.5;
      const py = y - offset + 0.5;
      const home = bucketOf(px, y + 0.5);
      let best = -1;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (let ring = 1; ring <= 4 && best < 0; ring++) {
        for (let j = -ring; j <= ring; j++) {
          for (let k = -ring; k <= ring; k++) {
            for (const seed of buckets.get(home + j * columns + k) ?? []) {
              const u = Math.abs((seed.x - px) * seed.cos + (seed.y - py) * seed.sin);
              const v = Math.abs((seed.y - py) * seed.cos - (seed.x - px) * seed.sin);
              const d = u > v ? u : v;
              if (d < bestDistance) {
                bestDistance = d;
                best = seed.tile;
              }
            }
          }
        }
      }
      if (best >= first) labels[i] = best;
    }
  }
}
