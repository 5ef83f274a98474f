import { addressOf, copyBack, scratch } from './scratch.js';
import type { Seeds } from './seeds.js';
import { wasmFunction } from './wasm.js';

/**
 * The visitor's stones settled after they are laid, as a mosaicist taps a row into line: each
 * stone turns towards its neighbours' direction and shifts so that its nearest neighbour on each
 * of its four sides lies one size off, in its own frame. Where rows from two guides meet, or hole
 * stones fill the gap between them, the stones as laid face several ways and keep uneven gaps,
 * and the cut gives each a corner of its neighbour's square: polygons rather than cut stones.
 * Settled, neighbouring frames agree and the joints run straight. The background's stones (the
 * outline row and the rings) stay as laid, and the visitor's settle against them.
 */

const settleLoop =
  wasmFunction<
    (
      x: number,
      y: number,
      size: number,
      cos: number,
      sin: number,
      person: number,
      count: number,
      width: number,
      height: number,
      work: number,
    ) => void
  >('settleStonesLoop');
const workBytes = wasmFunction<(count: number, width: number, height: number) => number>('settleWorkBytes');

/**
 * Settles the visitor's stones in place (see above): their neighbour lists are found once, then
 * each stone in turn, for several rounds, turns towards its neighbours' direction and shifts to
 * even its gaps. Runs in the engine's WebAssembly; seeds made elsewhere than `placeSeeds` are
 * copied in and their places and directions copied back.
 */
export function settleStones(seeds: Seeds, width: number, height: number): void {
  const { count, x, y, size, cos, sin, person } = seeds;
  const work = scratch('settle-work', Uint8Array, workBytes(count, width, height));
  const at = {
    x: addressOf(x, 'settle-x'),
    y: addressOf(y, 'settle-y'),
    cos: addressOf(cos, 'settle-cos'),
    sin: addressOf(sin, 'settle-sin'),
  };
  settleLoop(
    at.x,
    at.y,
    addressOf(size, 'settle-size'),
    at.cos,
    at.sin,
    addressOf(person, 'settle-person'),
    count,
    width,
    height,
    work.byteOffset,
  );
  copyBack(x, at.x);
  copyBack(y, at.y);
  copyBack(cos, at.cos);
  copyBack(sin, at.sin);
}
