import { ARTWORK, encodeLayingPlan, isTooDark, UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import sharp from 'sharp';
import { type Art, type ArtVariantName, perArt } from './art.js';
import { applyFrame, type FrameOverlay, frameOverlay } from './brand-frame.js';
import { createPalette } from './colour.js';
import { openPhoto, type Photo, type RgbImage } from './decode.js';
import { buildSizeMap } from './detail.js';
import { chooseFace, type FaceGeometry, geometryOf, meanLuma } from './face.js';
import {
  computeFraming,
  type Framing,
  fitToPhoto,
  fromArtwork,
  rollDegrees,
  toArtwork,
  warpToArtwork,
} from './framing.js';
import type { Window } from './geometry.js';
import { sobel } from './gradient.js';
import { buildGuides, GUIDE_CELL } from './guides.js';
import { type DetectedFace, type Landmarks, mapLandmarks } from './landmarks.js';
import { layingPlan } from './laying-plan.js';
import { LAYOUT, POST_WINDOW } from './layout.js';
import { detectFaces, segmentPerson } from './models.js';
import { type PaintStyle, paintTiles } from './paint.js';
import { type ModelMask, personProbability } from './person-mask.js';
import { MosaicRefusal } from './refusal.js';
import { resizeRgb } from './resample.js';
import { scratch } from './scratch.js';
import { placeSeeds } from './seeds.js';
import { type PaintedStory, paintStory } from './story.js';
import { landmarkBounds } from './story-figure.js';
import { buildTiles, quarterOf, type Tiles } from './superpixels.js';

/**
 * The render's stages, each from its own typed input to its output, in the order `render.ts` runs
 * them: decode → find face → frame → segment → tessellate → paint → brand → encode.
 */

/**
 * The image every measurement is taken on, the face detectors' too: half the 1600-px upload,
 * large enough that the framing can usually take its pixels straight from it. sharp shrinks a
 * JPEG on load only when it reduces it 3× or more, so this is a full decode and a Lanczos halving
 * (12.5 ms for 1280×1600; 7.5 ms at 533 px, but from 533 px a typical selfie's framing needs a
 * second decode).
 */
const DETECT_SIDE = 800;
/**
 * The selfie model's own input size: the framed photo is resized to it in one step (the model
 * sees it squeezed to a square either way), so Human has nothing to resize on the way in or out.
 */
const MASK_SIZE = 256;
/** Head roll above which the landmarks are read again on the levelled face. */
const RELEVEL_DEGREES = 10;
const palettes = perArt(({ colours }) => ({
  portrait: createPalette(colours.portrait),
  standard: createPalette(colours.standard.pattern),
  blacklabel: createPalette(colours.blacklabel.pattern),
}));

/** The opened upload and the small copy every measurement is taken on. */
export interface Decoded {
  photo: Photo;
  small: RgbImage;
}

export async function decode(input: Uint8Array): Promise<Decoded> {
  const photo = await openPhoto(input);
  return { photo, small: await photo.at(DETECT_SIDE) };
}

/** The subject's face in `small`'s pixels, levelled; or a refusal (no face, too dark, ...). */
export async function findFace({ photo, small }: Decoded): Promise<FaceGeometry> {
  if (isTooDark({ imageLuma: meanLuma(small) })) throw new MosaicRefusal('too_dark');
  const faces = await detectFaces(small);
  return levelled(chooseFace(faces, small, photo.width / small.width), small);
}

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

/** The photo framed at half the artwork's size, and the face's landmarks in artwork pixels. */
export interface Framed {
  framing: Framing;
  /** Size of the image the framing's photo coordinates refer to (`Decoded.small`). */
  from: { width: number; height: number };
  half: RgbImage;
  landmarks: Landmarks;
}

export async function frame({ photo, small }: Decoded, face: FaceGeometry): Promise<Framed> {
  // Framing is measured on the detector's image; the photo is decoded again only when the
  // half-size working image needs clearly more pixels than that image has (a slight enlargement
  // disappears under the tesserae).
  const framing = fitToPhoto(computeFraming(face), small.width, small.height);
  const smallSide = Math.max(small.width, small.height);
  const neededSide = smallSide * (framing.scale / 2);
  const source = neededSide > smallSide * 1.2 ? await photo.at(neededSide) : small;
  // The working image lives only until the render is painted (nothing in the result points to it).
  const half = scratch('framed-half', Uint8Array, (LAYOUT.width / 2) * (LAYOUT.height / 2) * 3);
  return {
    framing,
    from: { width: small.width, height: small.height },
    half: await warpToArtwork(source, framing, 2, source.width / small.width, half),
    landmarks: mapLandmarks(face.landmarks, (p) => toArtwork(framing, p)),
  };
}

export async function segment({ half }: Framed): Promise<ModelMask> {
  const input = await resizeRgb(half, MASK_SIZE, MASK_SIZE);
  return { mask: await segmentPerson(input), width: MASK_SIZE, height: MASK_SIZE };
}

/**
 * Stones are laid and tiles cut only where the frame's window shows them (the frame covers 14 % of
 * the canvas), and this far beyond it, artwork pixels: the joints and bevels at the window's edge
 * look two pixels past it (`paint.ts`), and the joint redraw treats the cut's outermost half-size
 * pixel as an image edge. A tile across the window's edge takes its colour, light and person share
 * from its part inside the cut, about the part that shows; a stone under the frame no longer holds
 * its visible neighbours' places while they are laid and settled, so the rows along the window's
 * edge differ from a whole-canvas cut's, as any other laying would.
 */
const CUT_MARGIN = 4;
const CUT: Window = {
  left: POST_WINDOW.left - CUT_MARGIN,
  top: POST_WINDOW.top - CUT_MARGIN,
  right: POST_WINDOW.right + CUT_MARGIN,
  bottom: POST_WINDOW.bottom + CUT_MARGIN,
};

/** Tesserae sized by the detail map, laid in rows along the figure's lines and the background's rings. */
export function tessellate({ framing, from, half, landmarks }: Framed, person: ModelMask, random: () => number): Tiles {
  const { width, height } = LAYOUT;
  const halfMask = personProbability({ framing, from, half, landmarks }, person);
  const quarter = quarterOf(half.data, halfMask, half.width, half.height);
  const quarterLuma = scratch('quarter-luma', Float32Array, quarter.mask.length);
  for (let i = 0; i < quarterLuma.length; i++) quarterLuma[i] = quarter.lab[i * 3] as number;
  const gradient = sobel(quarterLuma, quarter.width, quarter.height, 'quarter-luma');
  const sizeMap = buildSizeMap(gradient.magnitude, quarter.mask, quarter.width, quarter.height, GUIDE_CELL, landmarks);
  const guides = buildGuides(gradient, quarter.mask, quarter.width, quarter.height, landmarks);
  const seeds = placeSeeds(sizeMap, guides, quarter.mask, width, height, framing.target, random, CUT);
  const working = { ...half, rgb: half.data, mask: halfMask, lab: quarter.lab, labWidth: quarter.width };
  return buildTiles(working, seeds, width, height, CUT);
}

/** The painted artwork (RGB, inside the frame's window only) and the frame that goes over it. */
export interface Painted extends ReturnType<typeof paintTiles> {
  frame: FrameOverlay;
  style: PaintStyle;
}

export async function paint(
  tiles: Tiles,
  { framing }: Framed,
  art: Art,
  variant: ArtVariantName,
  random: () => number,
): Promise<Painted> {
  const overlay = await frameOverlay(art, variant);
  const [open] = overlay.windows;
  if (!open) throw new Error('the frame has no window');
  // Under the opaque frame nothing painted would show.
  const window = { left: overlay.innerLeft, top: open.top, right: overlay.innerRight, bottom: open.bottom };
  const style = {
    portrait: palettes(art).portrait,
    pattern: palettes(art)[variant],
    grout: art.colours[variant].grout,
    outline: outlineIndex(art, variant),
  };
  const painted = paintTiles(tiles, LAYOUT.width, LAYOUT.height, style, framing.target, random, window);
  return { ...painted, frame: overlay, style };
}

/**
 * The framed 9:16 story version of the painted artwork, with its labels and tile looks (see
 * `story.ts`). Runs before `brand`, which frames the 4:5 in place.
 */
export async function storyOf(
  { framing, landmarks }: Framed,
  { rgb, look, style }: Painted,
  tiles: Tiles,
  art: Art,
  variant: ArtVariantName,
  random: () => number,
): Promise<PaintedStory> {
  const frame = await frameOverlay(art, variant, 'story');
  const face = landmarkBounds(landmarks);
  return paintStory({ tiles, look, painted: rgb, style, centre: framing.target, face, frame, random });
}

function outlineIndex(art: Art, variant: ArtVariantName): number {
  const index = art.colours[variant].pattern.indexOf(art.colours[variant].outline);
  if (index < 0) throw new Error(`the ${variant} outline colour is not one of its pattern colours`);
  return index;
}

/** The frame and wordmark copied over the painted artwork, in place: the finished RGB. */
export function brand({ rgb, frame }: Painted): Uint8Array {
  applyFrame(rgb, frame);
  return rgb;
}

const QUALITIES = [88, 82, 75, 65];
/**
 * The story has 42 % more pixels under the same size cap: a detailed portrait at 88 would come to
 * about 650 KB, so it starts one step lower rather than encode twice.
 */
export const STORY_QUALITIES = QUALITIES.slice(1);

/** JPEG without metadata, stepping quality down in the rare case the artwork would exceed the size cap. */
export async function encode(
  rgb: Uint8Array,
  { width, height }: { width: number; height: number } = LAYOUT,
  qualities = QUALITIES,
): Promise<Buffer> {
  for (const quality of qualities) {
    const jpeg = await sharp(rgb, { raw: { width, height, channels: 3 }, limitInputPixels: UPLOAD_LIMITS.maxPixels })
      // Optimised Huffman tables would save 1–2 % of the bytes for three times the encoding time.
      .jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false })
      .toBuffer();
    if (jpeg.byteLength <= ARTWORK.maxBytes) return jpeg;
  }
  throw new Error('artwork does not fit the JPEG size cap');
}

/**
 * The laying plan of the 4:5 and, when made, the story (see `laying-plan.ts`), encoded as the
 * contract describes. Runs before `brand`: it reads the tiles as painted, not the frame.
 */
export function planOf(
  tiles: Tiles,
  { framing }: Framed,
  { look, frame, style }: Painted,
  story?: PaintedStory,
): Uint8Array {
  const plaque = story?.frame.plaque;
  const plan = layingPlan({
    tiles,
    look: story?.look ?? look,
    post: { labels: tiles.labels, window: openWindow(frame) },
    ...(story && { story: { labels: story.labels, window: openWindow(story.frame) } }),
    ...(plaque && {
      plaque: {
        left: plaque.left,
        top: plaque.top,
        right: plaque.left + plaque.width,
        bottom: plaque.top + plaque.height,
      },
    }),
    palettes: { portrait: style.portrait, pattern: style.pattern },
    grout: style.grout,
    centre: framing.target,
  });
  return encodeLayingPlan(plan);
}

/** The part of a frame's canvas its windows leave open, from the first window's top to the last's bottom. */
function openWindow({ innerLeft, innerRight, windows }: FrameOverlay): Window {
  const first = windows[0];
  const last = windows[windows.length - 1];
  if (!first || !last) throw new Error('the frame has no window');
  return { left: innerLeft, top: first.top, right: innerRight, bottom: last.bottom };
}
