import { type Window, wholeImage } from '../../geometry.js';
import type { Seeds } from '../../seeds.js';

/** The JavaScript the engine's WebAssembly `connectPieces` replaced, kept as the reference its test compares with. */

/** `enforceConnectivity` (`connectivity.ts`) in JavaScript. */
export function enforceConnectivity(
  labels: Int32Array,
  width: number,
  height: number,
  seeds: Seeds,
  region: Window = wholeImage(width, height),
): { labels: Int32Array; origin: Int32Array; count: number } {
  const { left, top, right, bottom } = region;
  const n = (right - left) * (bottom - top);
  // Runs are stored in raster order. A tile row is several pixels long, so room for one run in
  // eight pixels is usually plenty; the arrays double when it is not.
  let capacity = Math.ceil(n / 8);
  let runStart = new Int32Array(capacity);
  let runEnd = new Int32Array(capacity);
  let parent = new Int32Array(capacity);
  let size = new Int32Array(capacity);
  const grow = () => {
    capacity *= 2;
    runStart = grown('run-start', runStart, capacity);
    runEnd = grown('run-end', runEnd, capacity);
    parent = grown('run-parent', parent, capacity);
    size = grown('run-size', size, capacity);
  };
  let runs = 0;
  let previousFirst = 0;
  let previousLast = 0;
  const find = (run: number): number => {
    let root = run;
    while (parent[root] !== root) root = parent[root] as number;
    // Pointing the whole path at the root keeps later look-ups short.
    for (let r = run; parent[r] !== root; ) {
      const next = parent[r] as number;
      parent[r] = root;
      r = next;
    }
    return root;
  };
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    const first = runs;
    let above = previousFirst;
    for (let x = left; x < right; ) {
      const label = labels[row + x] as number;
      let end = x + 1;
      while (end < right && labels[row + end] === label) end++;
      if (runs === capacity) grow();
      const run = runs++;
      runStart[run] = row + x;
      runEnd[run] = row + end;
      parent[run] = run;
      size[run] = end - x;
      // Join every run of the same label above that overlaps [x, end).
      while (above < previousLast && (runEnd[above] as number) - (row - width) <= x) above++;
      for (let r = above; r < previousLast && (runStart[r] as number) - (row - width) < end; r++) {
        if (labels[runStart[r] as number] !== label) continue;
        const a = find(r);
        const b = find(run);
        if (a === b) continue;
        // The earlier run stays the root, so a piece's root is its first run.
        const root = a < b ? a : b;
        const child = a < b ? b : a;
        parent[child] = root;
        size[root] = (size[root] as number) + (size[child] as number);
      }
      x = end;
    }
    previousFirst = first;
    previousLast = runs;
  }

  // Runs are relabelled in raster order, so the pixels left of and above a run already hold tile ids.
  const out = labels;
  // The tile id of each root run, once decided.
  const tileOf = new Int32Array(runs).fill(-1);
  const origin: number[] = [];
  for (let run = 0; run < runs; run++) {
    const root = find(run);
    let id = tileOf[root] as number;
    if (id < 0) {
      // The piece's first run: decide now whether it is a tile or a speck.
      const start = runStart[run] as number;
      const label = labels[start] as number;
      const adjacent =
        start % width > left
          ? (out[start - 1] as number)
          : start >= (top + 1) * width
            ? (out[start - width] as number)
            : -1;
      const spacing = label >= 0 ? (seeds.size[label] as number) / 2 : 0;
      const speck = label < 0 || (size[root] as number) < Math.max(3, 0.3 * spacing * spacing);
      if (speck && adjacent >= 0) {
        id = adjacent;
      } else {
        id = origin.length;
        origin.push(Math.max(label, 0));
      }
      tileOf[root] = id;
    }
    // Runs are short: a plain loop beats TypedArray#fill's call overhead.
    for (let i = runStart[run] as number, end = runEnd[run] as number; i < end; i++) out[i] = id;
  }
  return { labels: out, origin: Int32Array.from(origin), count: origin.length };
}

/** A larger scratch array holding the old one's values. */
function grown(_key: string, old: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(length);
  bigger.set(old);
  return bigger;
}
