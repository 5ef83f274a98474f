import { applyFrame, type FrameOverlay } from './brand-frame.js';
import { TILE_SIZES } from './detail.js';
import type { Point } from './geometry.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { allocateLook, drawTiles, lookOfPatternTile, type PaintStyle, type TileLook } from './paint.js';
import { patternIndex } from './pattern.js';
import { scratch } from './scratch.js';

/**
 * The 9:16 story version of a painted 4:5 artwork. Its middle is the 4:5 itself, in its own frame:
 * the same tiles, colours and light, copied pixel for pixel, so the visitor is the very same
 * mosaic. Above and below, seen through the story frame's two further windows, the background
 * rows carry on around the face: new tesserae on the same concentric rings, in the pattern's
 * colours. The frame's bars lie where the 4:5 ends, so a head or shoulders the 4:5 cuts off end
 * under a bar, as they do under the 4:5's frame, never in a straight cut through the pattern.
 */

/** Background tile spacing, as in the 4:5's rings. */
const SPACING = TILE_SIZES.background;

export interface StoryInput {
  /** The 4:5's tiles as painted there. */
  look: TileLook;
  /** The painted 4:5 (its window at least), 1080×1350 RGB. */
  painted: Uint8Array;
  style: PaintStyle;
  /** The face centre on the 4:5, where the pattern's rings are centred. */
  centre: Point;
  frame: FrameOverlay;
  random: () => number;
}

/** The story's RGB, framed, 1080×1920. */
export function paintStory({ look, painted, style, centre, frame, random }: StoryInput): Uint8Array {
  const { width, height, offset } = STORY_LAYOUT;
  const [above, middle, below] = frame.windows;
  if (!above || !middle || !below) throw new Error('the story frame needs windows above, around and below the 4:5');
  const seeds = ringSeeds(centre, random);
  for (const [i, seed] of seeds.entries()) seed.tile = look.count + i;
  // Each window's labels reach two rows beyond it, so its edge rows get joints and bevels only
  // where tiles meet.
  const labels = scratch('story-labels', Uint16Array, width * height);
  assignNearest(labels, above.top - 2, above.bottom + 2, seeds);
  assignNearest(labels, below.top - 2, Math.min(height, below.bottom + 2), seeds);
  const storyLook = extendLook(look, seeds, style, centre, random);
  const out = scratch('story-painted', Uint8Array, width * height * 3);
  const columns = { left: frame.innerLeft, right: frame.innerRight };
  drawTiles(labels, width, height, storyLook, { ...columns, ...above }, out, offset);
  // The 4:5's own window, as painted there.
  const from = (middle.top - offset) * LAYOUT.width * 3;
  const to = (middle.bottom - offset) * LAYOUT.width * 3;
  out.set(painted.subarray(from, to), middle.top * width * 3);
  drawTiles(labels, width, height, storyLook, { ...columns, ...below }, out, offset);
  applyFrame(out, frame);
  return out;
}

interface Seed {
  x: number;
  y: number;
  /** Direction of the seed's ring (unit vector): its tessera is a square along it. */
  cos: number;
  sin: number;
  /** Tile index in the story's label map. */
  tile: number;
}

/** Background seeds on rings around the face, over the story's whole canvas (4:5 coordinates). */
function ringSeeds(centre: Point, random: () => number): Seed[] {
  const { width } = LAYOUT;
  const top = -STORY_LAYOUT.offset;
  const bottom = STORY_LAYOUT.height - STORY_LAYOUT.offset;
  const farthest = Math.hypot(Math.max(centre.x, width - centre.x), Math.max(centre.y - top, bottom - centre.y));
  const seeds: Seed[] = [];
  for (let r = SPACING * 0.75; r < farthest + SPACING; r += SPACING) {
    const steps = Math.max(6, Math.round((2 * Math.PI * r) / SPACING));
    const phase = random() * 2 * Math.PI;
    for (let s = 0; s < steps; s++) {
      const angle = phase + (s * 2 * Math.PI) / steps;
      const x = centre.x + r * Math.cos(angle);
      const y = centre.y + r * Math.sin(angle);
      if (x < -SPACING / 2 || x > width + SPACING / 2 || y < top - SPACING / 2 || y > bottom + SPACING / 2) continue;
      // Only the rows the 4:5 does not show need new tiles.
      if (y >= LAYOUT.border + SPACING && y <= LAYOUT.height - LAYOUT.band - SPACING) continue;
      seeds.push({ x, y, cos: -Math.sin(angle), sin: Math.cos(angle), tile: 0 });
    }
  }
  return seeds;
}

/**
 * Gives each pixel of story rows `from`–`to` (exclusive) its nearest seed's tile by the Chebyshev
 * distance in the seed's ring frame, as the 4:5's background is cut: square stones laid along the
 * rings. The cells are found on a grid of every other pixel first; a pixel whose surrounding grid
 * points all fall in one cell lies in that cell too (neighbouring squares turn by a few degrees
 * only, so their borders are near-straight), and only pixels along the cells' borders (about one
 * in six) are measured against the seeds again. That keeps the story within its time budget.
 */
function assignNearest(labels: Uint16Array, from: number, to: number, seeds: Seed[]): void {
  const { width, offset } = STORY_LAYOUT;
  if (to <= from) return;
  const xs = Float64Array.from(seeds, (s) => s.x);
  const ys = Float64Array.from(seeds, (s) => s.y);
  const coss = Float64Array.from(seeds, (s) => s.cos);
  const sins = Float64Array.from(seeds, (s) => s.sin);
  const nearest = (px: number, py: number, pool: ArrayLike<number>, size: number): number => {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let k = 0; k < size; k++) {
      const s = pool[k] as number;
      const dx = (xs[s] as number) - px;
      const dy = (ys[s] as number) - py;
      const cos = coss[s] as number;
      const sin = sins[s] as number;
      const u = Math.abs(dx * cos + dy * sin);
      const v = Math.abs(dy * cos - dx * sin);
      const d = u > v ? u : v;
      if (d < bestDistance) {
        bestDistance = d;
        best = s;
      }
    }
    return best;
  };
  // Seeds in buckets a spacing wide: the rings leave no point farther than a spacing from a seed,
  // so a point's own bucket and its eight neighbours always hold its nearest one.
  const top = from - offset;
  const columns = Math.ceil(width / SPACING) + 2;
  const rows = Math.ceil((to - from) / SPACING) + 2;
  const buckets: number[][] = Array.from({ length: columns * rows }, () => []);
  const bucketOf = (x: number, y: number) =>
    Math.min(rows - 1, Math.max(0, Math.floor((y - top) / SPACING) + 1)) * columns +
    Math.min(columns - 1, Math.max(0, Math.floor(x / SPACING) + 1));
  for (const [i, seed] of seeds.entries()) (buckets[bucketOf(seed.x, seed.y)] as number[]).push(i);
  const near = buckets.map((_, b) => {
    const bx = b % columns;
    const by = Math.floor(b / columns);
    const list: number[] = [];
    for (let ny = Math.max(0, by - 1); ny <= Math.min(rows - 1, by + 1); ny++) {
      for (let nx = Math.max(0, bx - 1); nx <= Math.min(columns - 1, bx + 1); nx++) {
        list.push(...(buckets[ny * columns + nx] as number[]));
      }
    }
    return Int32Array.from(list.length > 0 ? list : seeds.keys());
  });
  // The coarse grid: points at the centres of 2×2 pixel blocks, with a ring of points around.
  const gw = Math.ceil(width / 2) + 2;
  const gh = Math.ceil((to - from) / 2) + 2;
  const grid = new Int32Array(gw * gh);
  // Under the frame's sides only the pixel next to each window matters (for its joints).
  const left = LAYOUT.border - 2;
  const right = width - LAYOUT.border + 2;
  for (let gy = 0; gy < gh; gy++) {
    const py = top + (gy - 1) * 2 + 1;
    for (let gx = left / 2; gx < right / 2 + 2; gx++) {
      const px = (gx - 1) * 2 + 1;
      const pool = near[bucketOf(px, py)] as Int32Array;
      grid[gy * gw + gx] = nearest(px, py, pool, pool.length);
    }
  }
  // A grid point is settled when its eight neighbours share its cell.
  const settled = new Uint8Array(gw * gh);
  for (let gy = 1; gy < gh - 1; gy++) {
    for (let gx = left / 2 + 1; gx < right / 2 + 1; gx++) {
      const i = gy * gw + gx;
      const s = grid[i] as number;
      settled[i] =
        grid[i - gw - 1] === s &&
        grid[i - gw] === s &&
        grid[i - gw + 1] === s &&
        grid[i - 1] === s &&
        grid[i + 1] === s &&
        grid[i + gw - 1] === s &&
        grid[i + gw] === s &&
        grid[i + gw + 1] === s
          ? 1
          : 0;
    }
  }
  const pool = new Int32Array(9);
  for (let y = from; y < to; y++) {
    const gy = ((y - from) >> 1) + 1;
    const py = y - offset + 0.5;
    const row = y * width;
    for (let x = left; x < right; x++) {
      const i = gy * gw + (x >> 1) + 1;
      let seed = grid[i] as number;
      if (settled[i] === 0) {
        for (let k = 0, ny = -gw; ny <= gw; ny += gw) {
          for (let nx = -1; nx <= 1; nx++) pool[k++] = grid[i + ny + nx] as number;
        }
        seed = nearest(x + 0.5, py, pool, 9);
      }
      labels[row + x] = (seeds[seed] as Seed).tile;
    }
  }
}

/** The 4:5's tile looks followed by the new background tiles', numbered on from the 4:5's. */
function extendLook(look: TileLook, seeds: Seed[], style: PaintStyle, centre: Point, random: () => number): TileLook {
  const count = look.count + seeds.length;
  if (count > 0xffff) throw new Error(`${count} story tiles do not fit 16-bit labels`);
  const out = allocateLook(count);
  out.colours.set(look.colours);
  out.rgb.set(look.rgb);
  out.joint.set(look.joint);
  out.base.set(look.base);
  out.slopeX.set(look.slopeX);
  out.slopeY.set(look.slopeY);
  out.cx.set(look.cx);
  out.cy.set(look.cy);
  out.cos.set(look.cos);
  out.sin.set(look.sin);
  out.inverseHalf.set(look.inverseHalf);
  out.bevel.set(look.bevel);
  out.sheen.set(look.sheen);
  out.glass.set(look.glass);
  out.wide.set(look.wide);
  out.personTiles = look.personTiles;
  for (const seed of seeds) {
    lookOfPatternTile(
      out,
      seed.tile,
      seed.x,
      seed.y,
      SPACING,
      seed,
      patternIndex(seed.x, seed.y, centre, style.pattern.size),
      style,
      random,
    );
  }
  return out;
}
