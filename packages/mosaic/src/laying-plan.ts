import { IN_POST, IN_STORY, type LayingPlan, type PlanBox } from '@selfie-mosaic/contract';
import { type Palette, parseHex } from './colour.js';
import { TILE_SIZES } from './detail.js';
import type { Point } from './geometry.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import type { TileLook } from './paint.js';
import type { Tiles } from './superpixels.js';
import { type Outlines, tileOutlines } from './tile-outlines.js';

/**
 * The laying plan of a render (the contract's `LayingPlan`): every tessera of the 4:5 and of the
 * story in the order a mosaicist lays them. The rows along the guide lines (the figure's outline,
 * the face, its features) first, in the order they were laid; then the rows filling the figure,
 * outward from those lines; then the background ring by ring from the face outward, each ring
 * round in one sweep, the story's rings with the 4:5's.
 */

const PHASE = { lines: 0, figure: 1, background: 2 } as const;
/** Phases are far apart in the sort key; within one, seeds (and rings, in thousandths of a turn) far fewer. */
const PHASE_STEP = 1e9;
/** Sort keys are whole numbers times this, plus the tile's index: 16-bit labels. */
const TILE_SLOTS = 0x10000;
const RING = TILE_SIZES.background;
const NOTHING = { left: 0, top: 0, right: 0, bottom: 0 };

export interface PlanPicture {
  /** Tile index per pixel (the story's: the 4:5's tiles keep their index, its own come after them). */
  labels: Uint16Array;
  /** Where the tiles show, in this picture's pixels. */
  window: PlanBox;
}

export interface PlanInput {
  /** The story's wordmark plaque, story pixels (none: an empty box). */
  plaque?: PlanBox;
  tiles: Tiles;
  /** The 4:5's look, or the story's, which extends it. */
  look: TileLook;
  post: PlanPicture;
  story?: PlanPicture;
  palettes: { portrait: Palette; pattern: Palette };
  grout: string;
  /** The face centre, where the background's rings are centred (4:5 pixels). */
  centre: Point;
}

export function layingPlan({ tiles, look, post, story, plaque, palettes, grout, centre }: PlanInput): LayingPlan {
  const postCount = tiles.count;
  const storyCount = story ? look.count : postCount;
  const inPost = tileOutlines(post.labels, LAYOUT.width, post.window, postCount, look, () => true);
  const inStory = story
    ? tileOutlines(
        story.labels,
        STORY_LAYOUT.width,
        story.window,
        storyCount,
        look,
        (t) => t >= postCount || inPost.present[t] === 0,
      )
    : undefined;

  // Records: the 4:5's tiles (shown in the story too where it keeps them), then the story's own,
  // sorted by their laying key with the tile index in the low bits (a numeric sort of one array).
  const keyed = new Float64Array(storyCount);
  let count = 0;
  for (let t = 0; t < storyCount; t++) {
    if (inPost.present[t] === 1 || inStory?.present[t] === 1)
      keyed[count++] = sortKey(t, tiles, look, centre) * TILE_SLOTS + t;
  }
  const records = keyed.subarray(0, count).sort();

  const portraitSize = palettes.portrait.size;
  const palette = new Uint8Array((portraitSize + palettes.pattern.size) * 3);
  palette.set(palettes.portrait.rgb);
  palette.set(palettes.pattern.rgb, portraitSize * 3);

  const phase = new Uint8Array(count);
  const formats = new Uint8Array(count);
  const colour = new Uint8Array(count);
  const x = new Int16Array(count);
  const y = new Int16Array(count);
  const vertexStart = new Uint32Array(count + 1);
  const vertices = new Int8Array(inPost.corners.length + (inStory?.corners.length ?? 0));
  let used = 0;
  for (let i = 0; i < count; i++) {
    const key = records[i] as number;
    const t = key % TILE_SLOTS;
    // The 4:5's tiles are measured on the 4:5; where the story keeps one it is the same pixels.
    const own = t >= postCount || inPost.present[t] === 0;
    const outlines = own ? (inStory as Outlines) : inPost;
    phase[i] = Math.floor(key / TILE_SLOTS / PHASE_STEP);
    formats[i] = (own ? 0 : IN_POST) | (inStory?.present[t] === 1 ? IN_STORY : 0);
    colour[i] = (look.glass[t] === 1 ? 0 : portraitSize) + (look.colours[t] as number);
    x[i] = outlines.cx[t] as number;
    y[i] = (outlines.cy[t] as number) - (own ? STORY_LAYOUT.offset : 0);
    vertexStart[i] = used;
    const from = outlines.cornerStart[t] as number;
    const to = outlines.cornerStart[t + 1] as number;
    vertices.set(outlines.corners.subarray(from * 2, to * 2), used * 2);
    used += to - from;
  }
  vertexStart[count] = used;
  const [r, g, b] = parseHex(grout);
  return {
    width: LAYOUT.width,
    height: LAYOUT.height,
    story: { width: STORY_LAYOUT.width, height: STORY_LAYOUT.height, offset: STORY_LAYOUT.offset },
    windows: { post: post.window, story: story?.window ?? NOTHING, plaque: plaque ?? NOTHING },
    grout: [r, g, b],
    palette,
    count,
    phase,
    formats,
    colour,
    x,
    y,
    vertexStart,
    vertices: vertices.slice(0, used * 2),
  };
}

/** Phase, then the laying order: the seeds' for the figure's rows, ring and angle for the background. */
function sortKey(t: number, tiles: Tiles, look: TileLook, centre: Point): number {
  const own = t >= tiles.count;
  if (!own && tiles.line[t] === 1) return PHASE.lines * PHASE_STEP + (tiles.seed[t] as number);
  if (!own && look.glass[t] === 1) return PHASE.figure * PHASE_STEP + (tiles.seed[t] as number);
  const dx = (look.cx[t] as number) - centre.x;
  const dy = (look.cy[t] as number) - centre.y;
  const ring = Math.max(0, Math.round(Math.hypot(dx, dy) / RING - 0.75));
  // Each ring round from the top, clockwise on screen.
  const turn = (Math.atan2(dx, -dy) / (2 * Math.PI) + 1) % 1;
  return PHASE.background * PHASE_STEP + ring * 1000 + Math.floor(turn * 1000);
}
