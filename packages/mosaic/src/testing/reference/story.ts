import { applyFrame } from '../../brand-frame.js';
import type { Point, Window } from '../../geometry.js';
import { LAYOUT, STORY_LAYOUT } from '../../layout.js';
import type { PaintStyle } from '../../paint.js';
import { patternIndex } from '../../pattern.js';
import { PLAQUE_OPAQUE, type Plaque } from '../../plaque.js';
import { NO_TILE } from '../../refine.js';
import {
  CELL,
  CELL_BITS,
  drawChanged,
  extendLook,
  Changes as LiveChanges,
  LOOK,
  type PaintedStory,
  PLAQUE,
  type StoryInput,
  stoneColours,
} from '../../story.js';
import { keptTiles, ringPhases } from '../../story-figure.js';
import { type Field, FREE, type RingSeed, ringSeeds, SQUARE_REACH, STORY_RINGS } from '../../story-rings.js';
import type { Tiles } from '../../superpixels.js';
import { assignNearest } from './story-rings.js';

/** The JavaScript the engine's WebAssembly story loops replaced (`story.ts`), kept as the reference their test compares with. */

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
    mixed: new Uint8Array(window.bottom - window.top + 2 * LOOK),
  };
  field.mixed.fill(1, tiles.cut.top + offset - field.from, tiles.cut.bottom + offset - field.from);
  if (frame.plaque)
    field.mixed.fill(1, frame.plaque.top - field.from, frame.plaque.top + frame.plaque.height - field.from);
  const labels = new Uint16Array(width * height).fill(FREE);
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
  const out = new Uint8Array(width * height * 3);
  drawChanged(labels, storyLook, window, changes, painted, out);
  if (frame.plaque) relabel(labels, frame.plaque, plaqueTile, NO_TILE);
  clearBeyond(labels, field, window);
  applyFrame(out, frame);
  return { rgb: out, labels, look: { ...storyLook, count: plaqueTile }, frame };
}

/** The live record of changed cells, marked here in JavaScript as the WebAssembly marks it. */
class Changes extends LiveChanges {
  /** Marks row `y`'s pixels `x0`–`x1` (exclusive) as changed. */
  mark(y: number, x0: number, x1: number): void {
    const c0 = Math.max(0, (x0 - LOOK) >> CELL_BITS);
    const c1 = Math.min(this.columns - 1, (x1 - 1 + LOOK) >> CELL_BITS);
    const r0 = Math.max(0, (y - LOOK) >> CELL_BITS);
    const r1 = Math.min(this.rows - 1, (y + LOOK) >> CELL_BITS);
    for (let r = r0; r <= r1; r++) this.cells.fill(1, r * this.columns + c0, r * this.columns + c1 + 1);
  }

  /** Marks the cells `row` holds (and clears it) for pixel row `y` and the rows within `LOOK` of it. */
  markRow(y: number): void {
    const { row, columns, cells } = this;
    const r0 = Math.max(0, (y - LOOK) >> CELL_BITS);
    const r1 = Math.min(this.rows - 1, (y + LOOK) >> CELL_BITS);
    for (let c = 0; c < columns; c++) {
      if (row[c] === 0) continue;
      row[c] = 0;
      for (let r = r0; r <= r1; r++) cells[r * columns + c] = 1;
    }
  }
}

/** Copies the kept tiles' labels into the field and marks where the rest lie; returns how many pixels are free. */
function keepTiles(labels: Uint16Array, field: Field, tiles: Tiles, keep: Uint8Array, changes: Changes): number {
  const { width, offset } = STORY_LAYOUT;
  const { from, to, left, right } = field;
  const post = tiles.labels;
  let free = 0;
  for (let y = from; y < to; y++) {
    const y4 = y - offset;
    if (y4 < tiles.cut.top || y4 >= tiles.cut.bottom) {
      changes.mark(y, left, right);
      free += right - left;
      continue;
    }
    // The row as the 4:5 has it, then the dropped tiles' pixels freed.
    const storyRow = y * width;
    labels.set(post.subarray(y4 * LAYOUT.width + left, y4 * LAYOUT.width + right), storyRow + left);
    for (let x = left, i = storyRow + left; x < right; x++, i++) {
      if (keep[labels[i] as number] === 1) continue;
      labels[i] = FREE;
      free++;
      // The cells within LOOK of the pixel, on its row.
      changes.row[(x - LOOK) >> CELL_BITS] = 1;
      changes.row[(x + LOOK) >> CELL_BITS] = 1;
    }
    changes.markRow(y);
  }
  return free;
}

/**
 * Gives the plaque's free pixels the label `tile`, so the stones around it are cut along it; returns
 * how many.
 */
function cutPlaque(labels: Uint16Array, plaque: Plaque, tile: number, changes: Changes): number {
  const { width } = STORY_LAYOUT;
  let cut = 0;
  for (let y = 0; y < plaque.height; y++) {
    const sy = plaque.top + y;
    for (let x = 0; x < plaque.width; x++) {
      if ((plaque.rgba[(y * plaque.width + x) * 4 + 3] as number) < PLAQUE_OPAQUE) continue;
      const i = sy * width + plaque.left + x;
      // A kept tile under the plaque keeps its pixels (the plaque hides them).
      if (labels[i] !== FREE) continue;
      labels[i] = tile;
      cut++;
    }
    changes.mark(sy, plaque.left, plaque.left + plaque.width);
  }
  return cut;
}

/** Relabels the plaque's pixels labelled `from` as `to`. */
function relabel(labels: Uint16Array, plaque: Plaque, from: number, to: number): void {
  const { width } = STORY_LAYOUT;
  for (let y = plaque.top; y < plaque.top + plaque.height; y++) {
    for (let x = plaque.left, i = y * width + x; x < plaque.left + plaque.width; x++, i++) {
      if (labels[i] === from) labels[i] = to;
    }
  }
}

/** NO_TILE on the two pixels around the window the labels reached for drawing. */
function clearBeyond(labels: Uint16Array, field: Field, window: Window): void {
  const { width } = STORY_LAYOUT;
  for (const y of [field.from, field.from + 1, window.bottom, window.bottom + 1]) {
    labels.fill(NO_TILE, y * width + field.left, y * width + field.right);
  }
  for (let y = window.top; y < window.bottom; y++) {
    labels.fill(NO_TILE, y * width + field.left, y * width + window.left);
    labels.fill(NO_TILE, y * width + window.right, y * width + field.right);
  }
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
  const figure = new Uint8Array(NO_TILE + 1);
  for (let t = 0; t < count; t++) if (keep[t] === 1 && (tiles.person[t] as number) >= 0.5) figure[t] = 1;
  // Edge pixels each new stone shares with the figure, counted from the new stone's side: the
  // figure lies in the 4:5's rows, and new stones there only in the changed cells.
  const contact = new Uint16Array(seeds.length);
  const end = count + seeds.length;
  const { columns, cells } = changes;
  const rowFrom = Math.max(field.from + 1, tiles.cut.top + offset);
  const rowTo = Math.min(field.to - 1, tiles.cut.bottom + offset);
  for (let c = 0; c < cells.length; c++) {
    if (cells[c] === 0) continue;
    const cx = (c % columns) * CELL;
    const cy = Math.floor(c / columns) * CELL;
    const x0 = Math.max(field.left + 1, cx);
    const x1 = Math.min(field.right - 1, cx + CELL);
    for (let y = Math.max(rowFrom, cy); y < Math.min(rowTo, cy + CELL); y++) {
      for (let x = x0, i = y * width + x0; x < x1; x++, i++) {
        const a = labels[i] as number;
        if (a < count || a >= end) continue;
        const touching =
          (figure[labels[i - 1] as number] as number) +
          (figure[labels[i + 1] as number] as number) +
          (figure[labels[i - width] as number] as number) +
          (figure[labels[i + width] as number] as number);
        if (touching > 0) contact[a - count] = (contact[a - count] as number) + touching;
      }
    }
  }
  return stoneColours(figure, contact, tiles, seeds, style, centre);
}
