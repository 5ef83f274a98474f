import { applyFrame, type FrameOverlay } from './brand-frame.js';
import { TILE_SIZES } from './detail.js';
import type { Point } from './geometry.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { allocateLook, drawTiles, lookOfPatternTile, type PaintStyle, type TileLook } from './paint.js';
import { forEachRingPlace, patternIndex } from './pattern.js';
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
  const bounds = {
    left: 0,
    top: -STORY_LAYOUT.offset,
    right: LAYOUT.width,
    bottom: STORY_LAYOUT.height - STORY_LAYOUT.offset,
  };
  const seeds: Seed[] = [];
  forEachRingPlace(centre, SPACING, bounds, random, (x, y, cos, sin) => {
    // Only the rows the 4:5 does not show need new tiles.
    if (y >= LAYOUT.border + SPACING && y <= LAYOUT.height - LAYOUT.band - SPACING) return;
    seeds.push({ x, y, cos, sin, tile: 0 });
  });
  return seeds;
}

/**
 * Half-size of the square each seed claims, in spacings. The rings leave no pixel farther than
 * 0.52 spacings (by the squares' own Chebyshev measure) from its nearest seed on any test photo, so
 * squares of this size overlap enough that each pixel's nearest seed is among those claiming it.
 */
const REACH = 0.6;

/**
 * Gives each pixel of story rows `from`–`to` (exclusive) its nearest seed's tile by the Chebyshev
 * distance in the seed's ring frame, as the 4:5's background is cut: square stones laid along the
 * rings. Rather than search the seeds for each pixel, each seed paints its tile over its own
 * oriented square, row by row, keeping the nearer seed where squares overlap (a distance buffer
 * holds each pixel's nearest so far): about one and
 * a half distance evaluations a pixel, which keeps the story within its time budget. A pixel no square
 * reaches (none on the rings as laid) is measured against every seed.
 */
function assignNearest(labels: Uint16Array, from: number, to: number, seeds: Seed[]): void {
  const { width, offset } = STORY_LAYOUT;
  if (to <= from) return;
  // Under the frame's sides only the pixel next to each window matters (for its joints).
  const left = LAYOUT.border - 2;
  const right = width - LAYOUT.border + 2;
  const span = right - left;
  const rows = to - from;
  const distance = scratch('story-distance', Float32Array, span * rows).fill(Number.POSITIVE_INFINITY);
  const reach = REACH * SPACING;
  const top = from - offset;
  for (let s = 0; s < seeds.length; s++) {
    const { x: sx, y: sy, cos, sin, tile } = seeds[s] as Seed;
    // The square's bounding rows, then on each row the columns inside both of its slabs.
    const extent = reach * (Math.abs(cos) + Math.abs(sin));
    const y0 = Math.max(0, Math.ceil(sy - extent - top - 0.5));
    const y1 = Math.min(rows - 1, Math.floor(sy + extent - top - 0.5));
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
      for (let x = x0; x <= x1; x++) {
        const dx = x + 0.5 - sx;
        const u = Math.abs(dx * cos + alongY);
        const v = Math.abs(acrossY - dx * sin);
        const d = u > v ? u : v;
        if (d < (distance[row + x] as number)) {
          distance[row + x] = d;
          labels[out + x] = tile;
        }
      }
    }
  }
  for (let y = 0; y < rows; y++) {
    const row = y * span - left;
    for (let x = left; x < right; x++) {
      if (distance[row + x] !== Number.POSITIVE_INFINITY) continue;
      labels[(from + y) * width + x] = (seeds[nearestSeed(x + 0.5, top + y + 0.5, seeds)] as Seed).tile;
    }
  }
}

function nearestSeed(px: number, py: number, seeds: Seed[]): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let s = 0; s < seeds.length; s++) {
    const { x, y, cos, sin } = seeds[s] as Seed;
    const u = Math.abs((x - px) * cos + (y - py) * sin);
    const v = Math.abs((y - py) * cos - (x - px) * sin);
    const d = u > v ? u : v;
    if (d < bestDistance) {
      bestDistance = d;
      best = s;
    }
  }
  return best;
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
