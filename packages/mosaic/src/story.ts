import { applyFrame, type FrameOverlay } from './brand-frame.js';
import { parseHex } from './colour.js';
import type { Point, Window } from './geometry.js';
import { LAYOUT, POST_WINDOW, STORY_LAYOUT } from './layout.js';
import { allocateLook, drawTilesIn, lookOfPatternTile, nearFigure, type PaintStyle, type TileLook } from './paint.js';
import { patternIndex } from './pattern.js';
import { PLAQUE_OPAQUE, type Plaque } from './plaque.js';
import { NO_TILE } from './refine.js';
import { addressOf, scratch } from './scratch.js';
import { keptTiles, ringPhases } from './story-figure.js';
import {
  assignNearest,
  type Field,
  FREE,
  type RingSeed,
  ringSeeds,
  SPACING,
  SQUARE_REACH,
  STORY_RINGS,
} from './story-rings.js';
import type { Tiles } from './superpixels.js';
import { wasmConstant, wasmFunction } from './wasm.js';

/**
 * The 9:16 story version of a painted 4:5 artwork, as one composition: a single window, the 4:5's
 * border all round, through which the mosaic and its pattern run from top to bottom. The 4:5's
 * tiles sit `offset` rows down, the very same tiles in the same light, so the visitor is the same
 * mosaic, except those the 4:5's window cuts at its top and bottom and the figure beyond the curve
 * it ends on in the story (`story-figure.ts`). Everywhere else the story lays its own stones on the
 * 4:5's background rings (`story-rings.ts`), in the pattern's colours, with the outline row and the
 * quiet tones beside the figure as the 4:5 has them. The wordmark is on a plaque laid in the mosaic
 * (`plaque.ts`).
 */

export interface StoryInput {
  /** The 4:5's tiles, their look and the painted 4:5 (its window at least, RGB at the artwork's size). */
  tiles: Tiles;
  look: TileLook;
  painted: Uint8Array;
  style: PaintStyle;
  /** The face centre on the 4:5, where the pattern's rings are centred. */
  centre: Point;
  /** The face's box on the 4:5 (its landmarks): the story leaves every tile there as it is. */
  face: Window;
  frame: FrameOverlay;
  random: () => number;
}

export interface PaintedStory {
  /** The story's RGB, framed, at the story's size. */
  rgb: Uint8Array;
  /**
   * Tile index of every pixel in the story's window, NO_TILE outside it and under the plaque. Indices
   * below the 4:5's tile count are the 4:5's own tiles (those the story keeps have exactly their 4:5
   * pixels, `offset` rows down); the story's own follow, numbered as they were laid, ring by ring
   * from the inner one.
   */
  labels: Uint16Array;
  /** Every tile's look (`count` of them), the 4:5's first: its palette colour's RGB is `rgb`. */
  look: TileLook;
  frame: FrameOverlay;
}

/**
 * A new stone counts as beside the figure, and takes the outline row's colour, where it shares at
 * least this much of its edge (pixels) with the figure's kept tiles: a corner touching does not.
 * The figure's edge runs along its tiles, in and out, so a stone of the row beside it may touch it
 * along little more than that.
 */
const OUTLINE_CONTACT = 4;
/** Cells of the record of where the story's labels differ from the 4:5's (pixels; a power of two). */
export const CELL_BITS = wasmConstant('storyCellBits');
export const CELL = 1 << CELL_BITS;
/** A drawn pixel looks this far around it (joints and bevels). */
export const LOOK = wasmConstant('storyLook');

export function paintStory({ tiles, look, painted, style, centre, face, frame, random }: StoryInput): PaintedStory {
  const { width, height, offset } = STORY_LAYOUT;
  const [open] = frame.windows;
  if (!open || frame.windows.length !== 1) throw new Error('the story frame needs one window');
  const window = { left: frame.innerLeft, top: open.top, right: frame.innerRight, bottom: open.bottom };
  const keep = keptTiles(tiles, centre, face, look.colours, (x, y) => patternIndex(x, y, centre, style.pattern.size));
  // Labels reach two pixels beyond the window, so its edge pixels get joints and bevels only
  // where tiles meet.
  const field: Field = {
    from: window.top - LOOK,
    to: window.bottom + LOOK,
    left: window.left - LOOK,
    right: window.right + LOOK,
    mixed: scratch('story-mixed', Uint8Array, window.bottom - window.top + 2 * LOOK).fill(0),
  };
  field.mixed.fill(1, tiles.cut.top + offset - field.from, tiles.cut.bottom + offset - field.from);
  if (frame.plaque)
    field.mixed.fill(1, frame.plaque.top - field.from, frame.plaque.top + frame.plaque.height - field.from);
  const labels = scratch('story-labels', Uint16Array, width * height).fill(FREE);
  const changes = new Changes(width, height);
  let free = keepTiles(labels, field, tiles, keep, changes);
  if (frame.plaque) free -= cutPlaque(labels, frame.plaque, PLAQUE, changes);
  const count = tiles.count;
  const seeds = ringSeeds(
    centre,
    ringPhases(tiles, keep, centre, STORY_RINGS),
    random,
    count,
    (x, y) => !changes.near(Math.floor(x), Math.floor(y) + offset, SQUARE_REACH),
  );
  const plaqueTile = count + seeds.length;
  if (plaqueTile >= PLAQUE) throw new Error(`${plaqueTile} story tiles do not fit 16-bit labels`);
  assignNearest(labels, field, seeds, count, free);
  const colours = newColours(labels, field, changes, tiles, keep, seeds, style, centre);
  const storyLook = extendLook(look, seeds, colours, style, random);
  if (frame.plaque) relabel(labels, frame.plaque, PLAQUE, plaqueTile);
  const out = scratch('story-painted', Uint8Array, width * height * 3);
  drawChanged(labels, storyLook, window, changes, painted, out);
  if (frame.plaque) relabel(labels, frame.plaque, plaqueTile, NO_TILE);
  clearBeyond(labels, field, window);
  applyFrame(out, frame);
  return { rgb: out, labels, look: { ...storyLook, count: plaqueTile }, frame };
}

/*
 * The label loops, in the engine's WebAssembly (`assembly/story.ts`). They work on the story's
 * labels in place, a scratch array, by their address.
 */
const keepLoop =
  wasmFunction<
    (
      labels: number,
      post: number,
      postWidth: number,
      width: number,
      offset: number,
      from: number,
      to: number,
      left: number,
      right: number,
      cutTop: number,
      cutBottom: number,
      keep: number,
      tiles: number,
      cells: number,
      columns: number,
      rows: number,
      row: number,
    ) => number
  >('storyKeepTiles');
const cutLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      rgba: number,
      left: number,
      top: number,
      plaqueWidth: number,
      plaqueHeight: number,
      opaque: number,
      tile: number,
      cells: number,
      columns: number,
      rows: number,
    ) => number
  >('storyCutPlaque');
const relabelLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      left: number,
      top: number,
      boxWidth: number,
      boxHeight: number,
      from: number,
      to: number,
    ) => void
  >('storyRelabel');
const clearLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      from: number,
      to: number,
      left: number,
      right: number,
      windowTop: number,
      windowBottom: number,
      windowLeft: number,
      windowRight: number,
      value: number,
    ) => void
  >('storyClearBeyond');
const contactLoop =
  wasmFunction<
    (
      labels: number,
      width: number,
      cells: number,
      columns: number,
      rows: number,
      rowFrom: number,
      rowTo: number,
      left: number,
      right: number,
      figure: number,
      count: number,
      end: number,
      contact: number,
    ) => void
  >('storyContact');

/** The plaque's label while the seeds are laid and assigned (no tile has it: fewer tiles fit 16 bits). */
export const PLAQUE = NO_TILE - 1;

/**
 * Which cells of the story hold a pixel whose label differs from the 4:5's there (or any pixel,
 * outside the 4:5's rows) or lie within `LOOK` of one: only there can the story's pixels differ
 * from the painted 4:5's. The WebAssembly marks them (`assembly/story.ts`, with the same `CELL`
 * and `LOOK`).
 */
export class Changes {
  readonly columns: number;
  readonly rows: number;
  readonly cells: Uint8Array;
  /** The cells of one row of pixels that hold a changed pixel, for `keepTiles`. */
  readonly row: Uint8Array;

  constructor(width: number, height: number) {
    this.columns = width >> CELL_BITS;
    this.rows = height >> CELL_BITS;
    this.cells = scratch('story-changed', Uint8Array, this.columns * this.rows).fill(0);
    this.row = scratch('story-changed-row', Uint8Array, this.columns).fill(0);
  }

  /** Whether a changed cell lies within `reach` of (x, y). */
  near(x: number, y: number, reach: number): boolean {
    const c0 = Math.max(0, (x - reach) >> CELL_BITS);
    const c1 = Math.min(this.columns - 1, (x + reach) >> CELL_BITS);
    const r0 = Math.max(0, (y - reach) >> CELL_BITS);
    const r1 = Math.min(this.rows - 1, (y + reach) >> CELL_BITS);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) if (this.cells[r * this.columns + c] === 1) return true;
    }
    return false;
  }
}

/** Copies the kept tiles' labels into the field and marks where the rest lie; returns how many pixels are free. */
function keepTiles(labels: Uint16Array, field: Field, tiles: Tiles, keep: Uint8Array, changes: Changes): number {
  const { width, offset } = STORY_LAYOUT;
  const { cells, columns, rows, row } = changes;
  return keepLoop(
    labels.byteOffset,
    addressOf(tiles.labels, 'story-post-labels'),
    LAYOUT.width,
    width,
    offset,
    field.from,
    field.to,
    field.left,
    field.right,
    tiles.cut.top,
    tiles.cut.bottom,
    addressOf(keep, 'story-keep'),
    keep.length,
    cells.byteOffset,
    columns,
    rows,
    row.byteOffset,
  );
}

/**
 * Gives the plaque's free pixels the label `tile`, so the stones around it are cut along it; returns
 * how many.
 */
function cutPlaque(labels: Uint16Array, plaque: Plaque, tile: number, changes: Changes): number {
  const { cells, columns, rows } = changes;
  return cutLoop(
    labels.byteOffset,
    STORY_LAYOUT.width,
    addressOf(plaque.rgba, 'story-plaque-rgba'),
    plaque.left,
    plaque.top,
    plaque.width,
    plaque.height,
    PLAQUE_OPAQUE,
    tile,
    cells.byteOffset,
    columns,
    rows,
  );
}

/** Relabels the plaque's pixels labelled `from` as `to`. */
function relabel(labels: Uint16Array, plaque: Plaque, from: number, to: number): void {
  const { left, top, width, height } = plaque;
  relabelLoop(labels.byteOffset, STORY_LAYOUT.width, left, top, width, height, from, to);
}

/** NO_TILE on the two pixels around the window the labels reached for drawing. */
function clearBeyond(labels: Uint16Array, field: Field, window: Window): void {
  const { from, to, left, right } = field;
  const at = labels.byteOffset;
  clearLoop(
    at,
    STORY_LAYOUT.width,
    from,
    to,
    left,
    right,
    window.top,
    window.bottom,
    window.left,
    window.right,
    NO_TILE,
  );
}

/**
 * Each new stone's pattern colour: the outline row's where it lies along the figure, the quiet tones
 * near it, the pattern's ring colours elsewhere, as the 4:5 colours its background.
 */
function newColours(
  labels: Uint16Array,
  field: Field,
  changes: Changes,
  tiles: Tiles,
  keep: Uint8Array,
  seeds: RingSeed[],
  style: PaintStyle,
  centre: Point,
): Uint8Array {
  const { width, offset } = STORY_LAYOUT;
  const count = tiles.count;
  // Indexed by any label: only the kept figure tiles' entries are 1.
  const figure = scratch('story-figure', Uint8Array, NO_TILE + 1).fill(0);
  for (let t = 0; t < count; t++) if (keep[t] === 1 && (tiles.person[t] as number) >= 0.5) figure[t] = 1;
  // Edge pixels each new stone shares with the figure, counted from the new stone's side: the
  // figure lies in the 4:5's rows, and new stones there only in the changed cells.
  const contact = scratch('story-contact', Uint16Array, seeds.length).fill(0);
  const end = count + seeds.length;
  const rowFrom = Math.max(field.from + 1, tiles.cut.top + offset);
  const rowTo = Math.min(field.to - 1, tiles.cut.bottom + offset);
  const { cells, columns, rows } = changes;
  // Pixels on the field's edge have no neighbour beyond it to count.
  const left = field.left + 1;
  const right = field.right - 1;
  const at = labels.byteOffset;
  const cellsAt = cells.byteOffset;
  contactLoop(
    at,
    width,
    cellsAt,
    columns,
    rows,
    rowFrom,
    rowTo,
    left,
    right,
    figure.byteOffset,
    count,
    end,
    contact.byteOffset,
  );
  return stoneColours(figure, contact, tiles, seeds, style, centre);
}

/**
 * Each new stone's colour from `figure` (1 for the kept figure tiles, by label) and `contact` (the
 * edge pixels each new stone shares with them).
 */
export function stoneColours(
  figure: Uint8Array,
  contact: Uint16Array,
  tiles: Tiles,
  seeds: RingSeed[],
  style: PaintStyle,
  centre: Point,
): Uint8Array {
  const { width } = STORY_LAYOUT;
  // The figure lies within the 4:5's cut: a stone two rings beyond it is far from the figure.
  const area = { left: 0, top: tiles.cut.top - 2 * SPACING, right: width, bottom: tiles.cut.bottom + 2 * SPACING };
  const nearKept = nearFigure(tiles.count, tiles.x, tiles.y, (t) => figure[t] === 1, area);
  const quiet = (x: number, y: number) => y >= area.top && y < area.bottom && nearKept(x, y);
  const colours = scratch('story-colours', Uint8Array, seeds.length);
  for (const [s, { x, y }] of seeds.entries()) {
    colours[s] =
      (contact[s] as number) >= OUTLINE_CONTACT
        ? style.outline
        : patternIndex(x, y, centre, style.pattern.size, quiet(x, y));
  }
  return colours;
}

/**
 * The 4:5's tile looks, the new stones' after them, and one for the plaque's place: drawn in grout
 * under the plaque, it gives the stones beside it a joint along the plaque's edge.
 */
export function extendLook(
  look: TileLook,
  seeds: RingSeed[],
  colours: Uint8Array,
  style: PaintStyle,
  random: () => number,
): TileLook {
  const count = look.count + seeds.length + 1;
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
  for (const [s, seed] of seeds.entries()) {
    lookOfPatternTile(out, seed.tile, seed.x, seed.y, SPACING, seed, colours[s] as number, style, random);
  }
  const plaque = count - 1;
  const grout = parseHex(style.grout);
  for (let c = 0; c < 3; c++) {
    out.rgb[plaque * 3 + c] = grout[c] as number;
    out.joint[plaque * 3 + c] = grout[c] as number;
  }
  out.base[plaque] = 1;
  out.wide[plaque] = 1;
  out.cos[plaque] = 1;
  return out;
}

/**
 * Draws the story's window: the painted 4:5's own pixels where nothing around them changed, which
 * drawing would repeat exactly (the same tiles, lit from the same row), and the changed cells tile
 * by tile.
 */
export function drawChanged(
  labels: Uint16Array,
  look: TileLook,
  window: Window,
  changes: Changes,
  painted: Uint8Array,
  out: Uint8Array,
): void {
  const { width, height, offset } = STORY_LAYOUT;
  const rowBytes = width * 3;
  out.set(
    painted.subarray(POST_WINDOW.top * rowBytes, POST_WINDOW.bottom * rowBytes),
    (POST_WINDOW.top + offset) * rowBytes,
  );
  const { columns, cells } = changes;
  const parts: Window[] = [];
  for (let r = window.top >> CELL_BITS; r * CELL < window.bottom; r++) {
    const top = Math.max(window.top, r * CELL);
    const bottom = Math.min(window.bottom, (r + 1) * CELL);
    for (let c = window.left >> CELL_BITS; c * CELL < window.right; c++) {
      if (cells[r * columns + c] === 0) continue;
      const start = c;
      while ((c + 1) * CELL < window.right && cells[r * columns + c + 1] === 1) c++;
      parts.push({
        left: Math.max(window.left, start * CELL),
        top,
        right: Math.min(window.right, (c + 1) * CELL),
        bottom,
      });
    }
  }
  drawTilesIn(labels, width, height, look, parts, out, offset);
}
