import { type Art, DEFAULT_ART } from './art.js';
import { check } from './checks.js';
import { MAX_SIDE, type RgbImage } from './decode.js';
import type { FaceGeometry } from './face.js';
import { type Framing, warpToArtwork } from './framing.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { createRandom } from './random.js';
import { MosaicRefusal } from './refusal.js';
import { serialised } from './scratch.js';
import {
  brand,
  type Decoded,
  decode,
  encode,
  findFace,
  frame,
  paint,
  planOf,
  STORY_QUALITIES,
  segment,
  storyOf,
  tessellate,
} from './stages.js';

export interface RenderOptions {
  /** The dark "black label" variant. */
  blacklabel?: boolean;
  /** Seeds the tile jitter and light: the same photo and seed give the same artwork. */
  seed?: number;
  /**
   * The campaign's colours and wordmark (default: the built-in campaign). Pass the same object to every render:
   * palettes and frames are built once per art object.
   */
  art?: Art;
  /** Also make the 9:16 story version (1080×1920) of the same mosaic. */
  story?: boolean;
  /** Also make the laying plan (the contract's encoding) of the artwork and, with `story`, of the story. */
  plan?: boolean;
}

export interface EncodedImage {
  jpeg: Buffer;
  width: number;
  height: number;
}

export interface RenderResult extends EncodedImage {
  tiles: number;
  /** The 9:16 story version, when asked for with `story: true`. */
  story?: EncodedImage;
  /** The laying plan, when asked for with `plan: true` (uncompressed). */
  plan?: Uint8Array;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
}

/** Everything the quality tests and the CLI want to look at besides the JPEG. */
export interface RenderDetails extends RenderResult {
  /** The photo framed exactly like the artwork (eyes level, face placed), artwork size. Empty from `render`. */
  framed: RgbImage;
  framing: Framing;
  /** Size of the image the framing's photo coordinates refer to: the photo spans 0–width, 0–height. */
  framedFrom: { width: number; height: number };
  face: FaceGeometry;
  /** Tiles that belong to the visitor (the rest are background pattern). */
  personTiles: number;
  /** Palette index of each tile. */
  colours: Uint8Array;
  /** Tile index of every artwork pixel the tiles were cut for (around the frame's window), NO_TILE elsewhere. */
  labels: Uint16Array;
  /** Mean person probability of each tile: 0.5 or more is painted from the portrait palette. */
  personByTile: Float32Array;
  /** The painted, framed artwork before JPEG encoding (RGB). */
  painted: Uint8Array;
  /** The story version's painted, framed RGB before encoding (empty without `story`). */
  storyPainted: Uint8Array;
}

const DEFAULT_SEED = 1;

interface CheckedOptions {
  blacklabel: boolean;
  seed: number;
  art: Art;
  story: boolean;
  plan: boolean;
}

function checkOptions(options: RenderOptions): CheckedOptions {
  check(typeof options === 'object' && options !== null, 'options', 'an object', options);
  const { blacklabel = false, seed = DEFAULT_SEED, art = DEFAULT_ART, story = false, plan = false } = options;
  check(typeof blacklabel === 'boolean', 'blacklabel', 'a boolean', blacklabel);
  check(typeof story === 'boolean', 'story', 'a boolean', story);
  check(typeof plan === 'boolean', 'plan', 'a boolean', plan);
  check(Number.isInteger(seed), 'seed', 'an integer', seed);
  check(typeof art?.wordmark === 'string' && typeof art.colours === 'object', 'art', 'colours and a wordmark', art);
  return { blacklabel, seed, art, story, plan };
}

/** The full pipeline: decode → find face → frame → segment → tessellate → paint → brand → encode. */
export async function renderDetailed(input: Buffer | Uint8Array, options: RenderOptions = {}): Promise<RenderDetails> {
  return guarded(input, options, true);
}

async function guarded(input: Buffer | Uint8Array, options: RenderOptions, inspect: boolean): Promise<RenderDetails> {
  const checked = checkOptions(options);
  try {
    return await serialised(() => run(input, checked, inspect));
  } catch (error) {
    if (error instanceof MosaicRefusal || error instanceof TypeError) throw error;
    const refusal = new MosaicRefusal('render_failed', error instanceof Error ? error.message : String(error));
    refusal.cause = error;
    throw refusal;
  }
}

/** The stages one after another, each timed under its name (see `stages.ts`). */
async function run(
  input: Uint8Array,
  { blacklabel, seed, art, story, plan }: CheckedOptions,
  inspect: boolean,
): Promise<RenderDetails> {
  const { timings, time, stop } = stopwatch();
  const decoded = await time('decode', () => decode(input));
  const face = await time('detect', () => findFace(decoded));
  const framed = await time('frame', () => frame(decoded, face));
  const person = await time('segment', () => segment(framed));
  // One sequence of random numbers lays the tiles and then lights them.
  const random = createRandom(seed);
  const tiles = await time('tessellate', () => tessellate(framed, person, random));
  const variant = blacklabel ? 'blacklabel' : 'standard';
  const painted = await time('paint', () => paint(tiles, framed, art, variant, random));
  // The story takes its middle from the painted 4:5 and only then does the 4:5 get its own frame.
  const storyArt = story ? await time('story', () => storyOf(framed, painted, tiles, art, variant, random)) : undefined;
  const storyRgb = storyArt?.rgb;
  const layingPlan = plan ? await time('plan', () => planOf(tiles, framed, painted, storyArt)) : undefined;
  const artwork = await time('brand', () => brand(painted));
  const [jpeg, storyJpeg] = await time('encode', () =>
    Promise.all([encode(artwork), storyRgb ? encode(storyRgb, STORY_LAYOUT, STORY_QUALITIES) : undefined]),
  );
  stop();
  const { width, height } = LAYOUT;
  return {
    jpeg,
    width,
    height,
    ...(storyJpeg && { story: { jpeg: storyJpeg, width: STORY_LAYOUT.width, height: STORY_LAYOUT.height } }),
    ...(layingPlan && { plan: layingPlan }),
    tiles: tiles.count,
    timings,
    framed: inspect ? await framedPhoto(decoded, framed.framing) : { data: new Uint8Array(0), width: 0, height: 0 },
    framing: framed.framing,
    framedFrom: framed.from,
    face,
    personTiles: painted.personTiles,
    colours: painted.colours,
    // Scratch memory is reused by the next render: inspection gets its own copies.
    labels: inspect ? tiles.labels.slice() : tiles.labels,
    personByTile: tiles.person,
    painted: inspect ? artwork.slice() : artwork,
    storyPainted: storyRgb && inspect ? storyRgb.slice() : (storyRgb ?? new Uint8Array(0)),
  };
}

/** Milliseconds per stage, and in all under `total`. */
function stopwatch() {
  const timings: Record<string, number> = {};
  const started = performance.now();
  const time = async <T>(stage: string, work: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await work();
    timings[stage] = performance.now() - start;
    return result;
  };
  const stop = () => {
    timings.total = performance.now() - started;
  };
  return { timings, time, stop };
}

/** The photo at full working size, framed exactly like the artwork. */
async function framedPhoto({ photo, small }: Decoded, framing: Framing): Promise<RgbImage> {
  const full = await photo.at(MAX_SIDE);
  return warpToArtwork(full, framing, 1, full.width / small.width);
}

/** The public result: the JPEG and its facts. */
export async function render(input: Buffer | Uint8Array, options: RenderOptions = {}): Promise<RenderResult> {
  const { jpeg, width, height, story, plan, tiles, timings } = await guarded(input, options, false);
  return { jpeg, width, height, ...(story && { story }), ...(plan && { plan }), tiles, timings };
}
