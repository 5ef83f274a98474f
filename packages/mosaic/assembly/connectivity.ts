import { i32At as at } from './shared/arrays';
import { endOfRun } from './shared/runs';

/**
 * Connected pieces of the half-resolution labels (`src/connectivity.ts`): runs of one label in a
 * row, joined by union–find with the runs they touch above; then each piece becomes a tile, or,
 * a speck, joins the piece left of (or above) its first pixel. The run arrays hold one run per
 * pixel of the region at most, so they never fill.
 */

/**
 * Relabels `labels` (i32, `width` per row) inside `[left, right) × [top, bottom)` in place with tile
 * ids, writes each tile's seed into `origin` and returns the number of tiles.
 */
export function connectPieces(
  labels: usize,
  width: i32,
  left: i32,
  top: i32,
  right: i32,
  bottom: i32,
  seedSize: usize,
  runStart: usize,
  runEnd: usize,
  parent: usize,
  size: usize,
  tileOf: usize,
  origin: usize,
): i32 {
  let runs = 0;
  let previousFirst = 0;
  let previousLast = 0;
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    const first = runs;
    let above = previousFirst;
    for (let x = left; x < right; ) {
      const label = load<i32>(labels + ((<usize>(row + x)) << 2));
      const end = endOfRun(labels + ((<usize>row) << 2), x + 1, right, label);
      const run = runs++;
      setAt(runStart, run, row + x);
      setAt(runEnd, run, row + end);
      setAt(parent, run, run);
      setAt(size, run, end - x);
      // Join every run of the same label above that overlaps [x, end).
      while (above < previousLast && at(runEnd, above) - (row - width) <= x) above++;
      for (let r = above; r < previousLast && at(runStart, r) - (row - width) < end; r++) {
        if (load<i32>(labels + ((<usize>at(runStart, r)) << 2)) !== label) continue;
        const a = find(parent, r);
        const b = find(parent, run);
        if (a === b) continue;
        // The earlier run stays the root, so a piece's root is its first run.
        const root = a < b ? a : b;
        const child = a < b ? b : a;
        setAt(parent, child, root);
        setAt(size, root, at(size, root) + at(size, child));
      }
      x = end;
    }
    previousFirst = first;
    previousLast = runs;
  }

  // Runs are relabelled in raster order, so the pixels left of and above a run already hold tile ids.
  for (let run = 0; run < runs; run++) setAt(tileOf, run, -1);
  let count = 0;
  for (let run = 0; run < runs; run++) {
    const root = find(parent, run);
    let id = at(tileOf, root);
    if (id < 0) {
      // The piece's first run: decide now whether it is a tile or a speck.
      const start = at(runStart, run);
      const label = at(labels, start);
      const adjacent =
        start % width > left ? at(labels, start - 1) : start >= (top + 1) * width ? at(labels, start - width) : -1;
      const spacing = label >= 0 ? <f64>load<f32>(seedSize + ((<usize>label) << 2)) / 2 : 0;
      const speck = label < 0 || <f64>at(size, root) < Math.max(3, 0.3 * spacing * spacing);
      if (speck && adjacent >= 0) {
        id = adjacent;
      } else {
        id = count++;
        setAt(origin, id, max(label, 0));
      }
      setAt(tileOf, root, id);
    }
    fillRun(labels, at(runStart, run), at(runEnd, run), id);
  }
  return count;
}

/** Sets labels [start, end) to `id`, four at a time. */
function fillRun(labels: usize, start: i32, end: i32, id: i32): void {
  const value = i32x4.splat(id);
  let i = start;
  for (; i + 4 <= end; i += 4) v128.store(labels + ((<usize>i) << 2), value);
  for (; i < end; i++) setAt(labels, i, id);
}

function find(parent: usize, run: i32): i32 {
  let root = run;
  while (at(parent, root) !== root) root = at(parent, root);
  // Pointing the whole path at the root keeps later look-ups short.
  for (let r = run; at(parent, r) !== root; ) {
    const next = at(parent, r);
    setAt(parent, r, root);
    r = next;
  }
  return root;
}

function setAt(array: usize, index: i32, value: i32): void {
  store<i32>(array + ((<usize>index) << 2), value);
}
