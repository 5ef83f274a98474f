import { ART_VARIANTS, type ArtVariantName, PORTRAIT_COLOURS } from '@selfie-mosaic/campaign';
import { ARTWORK, UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { applyFrame, frameOverlay } from './brand-frame.js';
import { check } from './checks.js';
import { createPalette, imageToLab } from './colour.js';
import { MAX_SIDE, openPhoto, type RgbImage } from './decode.js';
import { buildSizeMap, includeFace } from './detail.js';
import { chooseFace, FACE_LIMITS, type FaceGeometry, geometryOf, meanLuma } from './face.js';
import {
  computeFraming,
  type Framing,
  fadeBeyondPhoto,
  fillsCanvas,
  fitToPhoto,
  fromArtwork,
  rollDegrees,
  toArtwork,
  warpToArtwork,
} from './framing.js';
import { type DetectedFace, mapLandmarks } from './landmarks.js';
import { LAYOUT } from './layout.js';
import { detectFaces, segmentPerson } from './models.js';
import { paintTiles } from './paint.js';
import { createRandom } from './random.js';
import { MosaicRefusal } from './refusal.js';
import { resizeRgb, upsampleMask } from './resample.js';
import { scratch, serialised } from './scratch.js';
import { placeSeeds } from './seeds.js';
import { buildTiles, inverseSpacings, quarterOf } from './superpixels.js';

export interface RenderOptions {
  /** The dark "black label" variant. */
  blacklabel?: boolean;
  /** Seeds the tile jitter and light: the same photo and seed give the same artwork. */
  seed?: number;
}

export interface RenderResult {
  jpeg: Buffer;
  width: number;
  height: number;
  tiles: number;
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
  /** Tile index of every artwork pixel. */
  labels: Uint16Array;
  /** Mean person probability of each tile: 0.5 or more is painted from the portrait palette. */
  personByTile: Float32Array;
  /** The painted, framed artwork before JPEG encoding (RGB). */
  painted: Uint8Array;
}

/**
 * The detector's image: half the 1600-px upload, which JPEG decodes at once (shrink-on-load), and
 * large enough that the framing can usually take its pixels straight from it.
 */
const DETECT_SIDE = 800;
const DETECTOR_INPUT = 512;
/**
 * The selfie model's own input size: the framed photo is resized to it in one step (the model
 * sees it squeezed to a square either way), so Human has nothing to resize on the way in or out.
 */
const MASK_WIDTH = 256;
const MASK_HEIGHT = 256;
const DEFAULT_SEED = 1;
const PORTRAIT = createPalette(PORTRAIT_COLOURS);
const PATTERNS = {
  standard: createPalette(ART_VARIANTS.standard.pattern),
  blacklabel: createPalette(ART_VARIANTS.blacklabel.pattern),
};

/** Head roll above which FaceMesh's landmarks are read again on the levelled face. */
const RELEVEL_DEGREES = 10;

/**
 * FaceMesh reads a strongly tilted head less accurately (its roll can be off by several degrees),
 * so such a face is straightened with the first estimate and measured again, upright.
 */
async function levelled(face: FaceGeometry, image: RgbImage): Promise<FaceGeometry> {
  const framing = computeFraming(face);
  if (Math.abs(rollDegrees(framing)) <= RELEVEL_DEGREES) return face;
  const upright = await warpToArtwork(image, framing, 2);
  const faces = await detectFaces(upright);
  const target = { x: framing.target.x / 2, y: framing.target.y / 2 };
  const distance = ({ box }: DetectedFace) =>
    Math.hypot(box.x + box.width / 2 - target.x, box.y + box.height / 2 - target.y);
  const again = faces.sort((a, b) => distance(a) - distance(b))[0];
  if (!again || distance(again) > again.box.width) return face;
  return geometryOf(mapLandmarks(again.landmarks, (p) => fromArtwork(framing, { x: p.x * 2, y: p.y * 2 })));
}

function outlineIndex(variant: ArtVariantName): number {
  const index = ART_VARIANTS[variant].pattern.indexOf(ART_VARIANTS[variant].outline as never);
  if (index < 0) throw new Error(`the ${variant} outline colour is not one of its pattern colours`);
  return index;
}

function checkOptions(options: RenderOptions): { blacklabel: boolean; seed: number } {
  check(typeof options === 'object' && options !== null, 'options', 'an object', options);
  const { blacklabel = false, seed = DEFAULT_SEED } = options;
  check(typeof blacklabel === 'boolean', 'blacklabel', 'a boolean', blacklabel);
  check(Number.isInteger(seed), 'seed', 'an integer', seed);
  return { blacklabel, seed };
}

/** The full pipeline: decode → find face → frame → segment → tessellate → paint → brand → encode. */
export async function renderDetailed(input: Buffer | Uint8Array, options: RenderOptions = {}): Promise<RenderDetails> {
  return guarded(input, options, true);
}

async function guarded(input: Buffer | Uint8Array, options: RenderOptions, inspect: boolean): Promise<RenderDetails> {
  const { blacklabel, seed } = checkOptions(options);
  try {
    return await serialised(() => run(input, blacklabel, seed, inspect));
  } catch (error) {
    if (error instanceof MosaicRefusal || error instanceof TypeError) throw error;
    const refusal = new MosaicRefusal('render_failed', error instanceof Error ? error.message : String(error));
    refusal.cause = error;
    throw refusal;
  }
}

async function run(input: Uint8Array, blacklabel: boolean, seed: number, inspect: boolean): Promise<RenderDetails> {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = now - mark;
    mark = now;
  };
  const started = mark;

  const photo = await openPhoto(input);
  const small = await photo.at(DETECT_SIDE);
  lap('decode');

  if (meanLuma(small) < FACE_LIMITS.minImageLuma) throw new MosaicRefusal('too_dark');
  // The detector sees a smaller copy still: its cost grows with the input, and FaceMesh reads the
  // face at 192 px anyway.
  const detectScale = Math.min(1, DETECTOR_INPUT / Math.max(small.width, small.height));
  const detectorInput =
    detectScale < 1
      ? await resizeRgb(small, Math.round(small.width * detectScale), Math.round(small.height * detectScale))
      : small;
  const faces = await detectFaces(detectorInput, small.width / detectorInput.width);
  const face = await levelled(chooseFace(faces, small, photo.width / small.width), small);
  lap('detect');

  // Framing is measured on the detector's image; the photo is decoded again only when the
  // half-size working image needs clearly more pixels than that image has (a slight enlargement
  // disappears under the tesserae).
  const framing = fitToPhoto(computeFraming(face), small.width, small.height);
  const smallSide = Math.max(small.width, small.height);
  const neededSide = smallSide * (framing.scale / 2);
  const source = neededSide > smallSide * 1.2 ? await photo.at(neededSide) : small;
  const half = await warpToArtwork(source, framing, 2, source.width / small.width);
  const landmarks = mapLandmarks(face.landmarks, (p) => toArtwork(framing, p));
  lap('frame');

  const maskInput = await resizeRgb(half, MASK_WIDTH, MASK_HEIGHT);
  const mask = await segmentPerson(maskInput);
  lap('segment');

  const { width, height } = LAYOUT;
  const halfLab = imageToLab(half.data, scratch('half-lab', Float32Array, half.data.length));
  const halfMask = upsampleMask(
    mask,
    MASK_WIDTH,
    MASK_HEIGHT,
    half.width,
    half.height,
    scratch('half-mask', Float32Array, half.width * half.height),
  );
  includeFace(halfMask, half.width, half.height, 2, landmarks);
  // Where the framing reaches beyond the photo there is no visitor, only background (even where
  // the face oval above would continue past the edge).
  if (!fillsCanvas(framing, small.width, small.height)) {
    fadeBeyondPhoto(halfMask, framing, small.width, small.height, 2);
  }
  const quarter = quarterOf(halfLab, halfMask, half.width, half.height);
  const quarterLuma = scratch('quarter-luma', Float32Array, quarter.mask.length);
  for (let i = 0; i < quarterLuma.length; i++) quarterLuma[i] = quarter.lab[i * 3] as number;
  const sizeMap = buildSizeMap(quarterLuma, quarter.mask, quarter.width, quarter.height, 4, landmarks);
  const spacing = inverseSpacings(sizeMap, half.width, half.height);
  const random = createRandom(seed);
  const isPerson = (x: number, y: number) => {
    const hx = Math.min(half.width - 1, Math.max(0, Math.floor(x / 2)));
    const hy = Math.min(half.height - 1, Math.max(0, Math.floor(y / 2)));
    return (halfMask[hy * half.width + hx] as number) >= 0.5;
  };
  const seeds = placeSeeds(sizeMap, isPerson, width, height, framing.target, random);
  const tiles = buildTiles(
    { width: half.width, height: half.height, lab: halfLab, mask: halfMask, inverseSpacing2: spacing.half },
    { ...quarter, inverseSpacing2: spacing.quarter },
    seeds,
    width,
    height,
  );
  lap('tessellate');

  const variant = blacklabel ? 'blacklabel' : 'standard';
  const overlay = await frameOverlay(variant);
  // Under the opaque frame nothing painted would show.
  const window = {
    left: overlay.innerLeft,
    top: overlay.innerTop,
    right: overlay.innerRight,
    bottom: overlay.innerBottom,
  };
  const painted = paintTiles(
    tiles,
    width,
    height,
    {
      portrait: PORTRAIT,
      pattern: PATTERNS[variant],
      grout: ART_VARIANTS[variant].grout,
      outline: outlineIndex(variant),
    },
    framing.target,
    random,
    window,
  );
  lap('paint');

  applyFrame(painted.rgb, overlay);
  lap('brand');

  const jpeg = await encode(painted.rgb, width, height);
  lap('encode');
  timings.total = performance.now() - started;
  const full = inspect ? await photo.at(MAX_SIDE) : undefined;
  const framed = full
    ? await warpToArtwork(full, framing, 1, full.width / small.width)
    : { data: new Uint8Array(0), width: 0, height: 0 };
  return {
    jpeg,
    width,
    height,
    tiles: tiles.count,
    timings,
    framed,
    framing,
    framedFrom: { width: small.width, height: small.height },
    face,
    personTiles: painted.personTiles,
    colours: painted.colours,
    // Scratch memory is reused by the next render: inspection gets its own copies.
    labels: inspect ? tiles.labels.slice() : tiles.labels,
    personByTile: tiles.person,
    painted: inspect ? painted.rgb.slice() : painted.rgb,
  };
}

/** JPEG without metadata, stepping quality down in the rare case the artwork would exceed the size cap. */
async function encode(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  for (const quality of [88, 82, 75, 65]) {
    const jpeg = await sharp(rgb, { raw: { width, height, channels: 3 }, limitInputPixels: UPLOAD_LIMITS.maxPixels })
      // Optimised Huffman tables would save 1–2 % of the bytes for three times the encoding time.
      .jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false })
      .toBuffer();
    if (jpeg.byteLength <= ARTWORK.maxBytes) return jpeg;
  }
  throw new Error('artwork does not fit the JPEG size cap');
}

/** The public result: the JPEG and its facts. */
export async function render(input: Buffer | Uint8Array, options: RenderOptions = {}): Promise<RenderResult> {
  const { jpeg, width, height, tiles, timings } = await guarded(input, options, false);
  return { jpeg, width, height, tiles, timings };
}
