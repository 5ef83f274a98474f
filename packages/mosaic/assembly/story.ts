import { FREE } from './shared/labels';

/**
 * The story's label work around its new stones (`src/story.ts`): the 4:5's labels copied in with
 * the dropped tiles freed, the plaque cut out and relabelled, the reach beyond the window cleared,
 * and the new stones' contact with the figure counted. Labels are 16-bit, the canvas `width` wide.
 *
 * The record of changed cells (`cells`, `columns` × `rows` cells of `CELL` pixels) is marked as
 * `Changes` in `src/story.ts` marks it: a changed pixel marks every cell within `LOOK` of it.
 */

const CELL_BITS = 3;
/** A drawn pixel looks this far around it (joints and bevels). */
const LOOK = 2;

/**
 * Copies the 4:5's labels (`post`, `postWidth` wide) into the field's rows that lie in the
 * 4:5's cut (`cutTop`–`cutBottom`, 4:5 rows), frees the pixels of tiles `keep` does not flag (it
 * has `tiles` flags; a label beyond them is no kept tile) and marks where they lie, and marks the
 * field's other rows whole. `row` is a cell row of working space, all 0. Returns how many pixels of
 * the field are free.
 */
export function storyKeepTiles(
  labels: usize,
  post: usize,
  postWidth: i32,
  width: i32,
  offset: i32,
  from: i32,
  to: i32,
  left: i32,
  right: i32,
  cutTop: i32,
  cutBottom: i32,
  keep: usize,
  tiles: i32,
  cells: usize,
  columns: i32,
  rows: i32,
  row: usize,
): i32 {
  let free = 0;
  for (let y = from; y < to; y++) {
    const y4 = y - offset;
    if (y4 < cutTop || y4 >= cutBottom) {
      markCells(cells, columns, rows, y, left, right);
      free += right - left;
      continue;
    }
    const out = labels + ((<usize>(y * width + left)) << 1);
    memory.copy(out, post + ((<usize>(y4 * postWidth + left)) << 1), (<usize>(right - left)) << 1);
    // Runs of one tile share its fate: the flag is read once per run, and eight pixels of a kept
    // tile's run pass at once.
    let last = -1;
    let kept = true;
    let x = left;
    for (; x + 8 <= right; x += 8) {
      const at = out + ((<usize>(x - left)) << 1);
      if (kept && i16x8.all_true(i16x8.eq(v128.load(at), i16x8.splat(<i16>last)))) continue;
      for (let k = 0; k < 8; k++) {
        const l = <i32>load<u16>(at + ((<usize>k) << 1));
        if (l !== last) {
          last = l;
          kept = l < tiles && load<u8>(keep + <usize>l) === 1;
        }
        if (!kept) free += dropPixel(at + ((<usize>k) << 1), x + k, row, columns);
      }
    }
    for (; x < right; x++) {
      const at = out + ((<usize>(x - left)) << 1);
      const l = <i32>load<u16>(at);
      if (l !== last) {
        last = l;
        kept = l < tiles && load<u8>(keep + <usize>l) === 1;
      }
      if (!kept) free += dropPixel(at, x, row, columns);
    }
    markRow(cells, columns, rows, row, y);
  }
  return free;
}

/** Frees the pixel at `at` (column `x`) and flags the cells within `LOOK` of it in `row`; returns 1. */
function dropPixel(at: usize, x: i32, row: usize, columns: i32): i32 {
  store<u16>(at, <u16>FREE);
  // Beyond the row's cells, none.
  const c0 = (x - LOOK) >> CELL_BITS;
  const c1 = (x + LOOK) >> CELL_BITS;
  if (c0 >= 0 && c0 < columns) store<u8>(row + <usize>c0, 1);
  if (c1 >= 0 && c1 < columns) store<u8>(row + <usize>c1, 1);
  return 1;
}

/**
 * Gives the plaque's free pixels (those its `rgba`, `plaqueWidth` × `plaqueHeight` at `plaqueLeft`,
 * `plaqueTop`, has at least `opaque` alpha) the label `tile`, and marks its rows changed; returns
 * how many pixels it took.
 */
export function storyCutPlaque(
  labels: usize,
  width: i32,
  rgba: usize,
  plaqueLeft: i32,
  plaqueTop: i32,
  plaqueWidth: i32,
  plaqueHeight: i32,
  opaque: i32,
  tile: i32,
  cells: usize,
  columns: i32,
  rows: i32,
): i32 {
  let cut = 0;
  for (let y = 0; y < plaqueHeight; y++) {
    const sy = plaqueTop + y;
    const alpha = rgba + ((<usize>(y * plaqueWidth)) << 2) + 3;
    const out = labels + ((<usize>(sy * width + plaqueLeft)) << 1);
    for (let x = 0; x < plaqueWidth; x++) {
      if (<i32>load<u8>(alpha + ((<usize>x) << 2)) < opaque) continue;
      const at = out + ((<usize>x) << 1);
      // A kept tile under the plaque keeps its pixels (the plaque hides them).
      if (<i32>load<u16>(at) !== FREE) continue;
      store<u16>(at, <u16>tile);
      cut++;
    }
    markCells(cells, columns, rows, sy, plaqueLeft, plaqueLeft + plaqueWidth);
  }
  return cut;
}

/** Relabels the pixels labelled `before` as `after` in the box `boxWidth` × `boxHeight` at `boxLeft`, `boxTop`, eight at a time. */
export function storyRelabel(
  labels: usize,
  width: i32,
  boxLeft: i32,
  boxTop: i32,
  boxWidth: i32,
  boxHeight: i32,
  before: i32,
  after: i32,
): void {
  const was = i16x8.splat(<i16>before);
  const now = i16x8.splat(<i16>after);
  for (let y = boxTop; y < boxTop + boxHeight; y++) {
    const row = labels + ((<usize>(y * width + boxLeft)) << 1);
    let x = 0;
    for (; x + 8 <= boxWidth; x += 8) {
      const at = row + ((<usize>x) << 1);
      const eight = v128.load(at);
      v128.store(at, v128.bitselect(now, eight, i16x8.eq(eight, was)));
    }
    for (; x < boxWidth; x++) {
      const at = row + ((<usize>x) << 1);
      if (<i32>load<u16>(at) === before) store<u16>(at, <u16>after);
    }
  }
}

/**
 * Sets `value` on the field's pixels outside the window (`windowTop`–`windowBottom`,
 * `windowLeft`–`windowRight`): the two rows above and below it, the two columns each side.
 */
export function storyClearBeyond(
  labels: usize,
  width: i32,
  from: i32,
  to: i32,
  left: i32,
  right: i32,
  windowTop: i32,
  windowBottom: i32,
  windowLeft: i32,
  windowRight: i32,
  value: i32,
): void {
  for (let y = from; y < windowTop; y++) fillLabels(labels, width, y, left, right, value);
  for (let y = windowBottom; y < to; y++) fillLabels(labels, width, y, left, right, value);
  for (let y = windowTop; y < windowBottom; y++) {
    fillLabels(labels, width, y, left, windowLeft, value);
    fillLabels(labels, width, y, windowRight, right, value);
  }
}

function fillLabels(labels: usize, width: i32, y: i32, x0: i32, x1: i32, value: i32): void {
  const row = labels + ((<usize>(y * width)) << 1);
  for (let x = x0; x < x1; x++) store<u16>(row + ((<usize>x) << 1), <u16>value);
}

/**
 * Counts, for each new stone (labels `count`–`end`), the edge pixels it shares with the figure
 * (`figure` flags every label, 1 for the kept figure tiles), from the stone's side, over the changed
 * cells' pixels in rows `rowFrom`–`rowTo` and columns `left`–`right`: where else the labels are
 * the 4:5's. `contact` holds a 16-bit count per new stone, all 0.
 */
export function storyContact(
  labels: usize,
  width: i32,
  cells: usize,
  columns: i32,
  rows: i32,
  rowFrom: i32,
  rowTo: i32,
  left: i32,
  right: i32,
  figure: usize,
  count: i32,
  end: i32,
  contact: usize,
): void {
  const stride = (<usize>width) << 1;
  const cell = 1 << CELL_BITS;
  for (let r = 0; r < rows; r++) {
    const cy = r << CELL_BITS;
    const y0 = max(rowFrom, cy);
    const y1 = min(rowTo, cy + cell);
    if (y0 >= y1) continue;
    for (let c = 0; c < columns; c++) {
      if (load<u8>(cells + <usize>(r * columns + c)) === 0) continue;
      const cx = c << CELL_BITS;
      const x0 = max(left, cx);
      const x1 = min(right, cx + cell);
      for (let y = y0; y < y1; y++) {
        const row = labels + ((<usize>(y * width)) << 1);
        for (let x = x0; x < x1; x++) {
          const at = row + ((<usize>x) << 1);
          const a = <i32>load<u16>(at);
          if (a < count || a >= end) continue;
          const touching =
            <i32>load<u8>(figure + <usize>load<u16>(at - 2)) +
            <i32>load<u8>(figure + <usize>load<u16>(at + 2)) +
            <i32>load<u8>(figure + <usize>load<u16>(at - stride)) +
            <i32>load<u8>(figure + <usize>load<u16>(at + stride));
          if (touching === 0) continue;
          const counter = contact + ((<usize>(a - count)) << 1);
          store<u16>(counter, load<u16>(counter) + <u16>touching);
        }
      }
    }
  }
}

/** Marks row `y`'s pixels `x0`–`x1` (exclusive) changed: every cell within `LOOK` of them. */
function markCells(cells: usize, columns: i32, rows: i32, y: i32, x0: i32, x1: i32): void {
  const c0 = max(0, (x0 - LOOK) >> CELL_BITS);
  const c1 = min(columns - 1, (x1 - 1 + LOOK) >> CELL_BITS);
  const r0 = max(0, (y - LOOK) >> CELL_BITS);
  const r1 = min(rows - 1, (y + LOOK) >> CELL_BITS);
  if (c1 < c0) return;
  for (let r = r0; r <= r1; r++) memory.fill(cells + <usize>(r * columns + c0), 1, <usize>(c1 - c0 + 1));
}

/** Marks the cells `row` flags (and clears it) for pixel row `y` and the rows within `LOOK` of it. */
function markRow(cells: usize, columns: i32, rows: i32, row: usize, y: i32): void {
  const r0 = max(0, (y - LOOK) >> CELL_BITS);
  const r1 = min(rows - 1, (y + LOOK) >> CELL_BITS);
  for (let c = 0; c < columns; c++) {
    if (load<u8>(row + <usize>c) === 0) continue;
    store<u8>(row + <usize>c, 0);
    for (let r = r0; r <= r1; r++) store<u8>(cells + <usize>(r * columns + c), 1);
  }
}

// Read by `src/story.ts`, whose record of changes the loops mark alike.
export { CELL_BITS as storyCellBits, LOOK as storyLook };
