import { buildSizeMap, type SizeMap } from '../detail.js';
import type { Point, Window } from '../geometry.js';
import { type Gradient, sobel } from '../gradient.js';
import { GUIDE_CELL } from '../guides.js';
import { loadModels } from '../index.js';
import type { Landmarks } from '../landmarks.js';
import { LAYOUT, POST_WINDOW } from '../layout.js';
import { personProbability } from '../person-mask.js';
import { decode, findFace, frame, segment } from '../stages.js';
import { quarterOf } from '../superpixels.js';
import { portrait } from './photos.js';

/**
 * What the laying stages (guide lines, seeds, settling) take from a render of a test photo, as
 * `stages.ts` builds it, copied out of the scratch memory so that later renders leave it be.
 */
export interface LayingInputs {
  gradient: Gradient;
  mask: Float32Array;
  gridWidth: number;
  gridHeight: number;
  landmarks: Landmarks;
  sizeMap: SizeMap;
  width: number;
  height: number;
  centre: Point;
  /** The window the render lays stones in (`stages.ts`'s CUT). */
  within: Window;
}

const CUT_MARGIN = 4;

export async function layingInputs(name: string): Promise<LayingInputs> {
  await loadModels();
  const decoded = await decode(await portrait(name));
  const framed = await frame(decoded, await findFace(decoded));
  const person = await segment(framed);
  const { half, framing, from, landmarks } = framed;
  const halfMask = personProbability({ framing, from, half, landmarks }, person);
  const quarter = quarterOf(half.data, halfMask, half.width, half.height);
  const luma = new Float32Array(quarter.mask.length);
  for (let i = 0; i < luma.length; i++) luma[i] = quarter.lab[i * 3] as number;
  const gradient = sobel(luma, quarter.width, quarter.height, 'test-laying-luma');
  const sizeMap = buildSizeMap(gradient.magnitude, quarter.mask, quarter.width, quarter.height, GUIDE_CELL, landmarks);
  return {
    gradient: { gx: gradient.gx.slice(), gy: gradient.gy.slice(), magnitude: gradient.magnitude.slice() },
    mask: quarter.mask.slice(),
    gridWidth: quarter.width,
    gridHeight: quarter.height,
    landmarks,
    sizeMap: { ...sizeMap, sizes: sizeMap.sizes.slice() },
    width: LAYOUT.width,
    height: LAYOUT.height,
    centre: framing.target,
    within: {
      left: POST_WINDOW.left - CUT_MARGIN,
      top: POST_WINDOW.top - CUT_MARGIN,
      right: POST_WINDOW.right + CUT_MARGIN,
      bottom: POST_WINDOW.bottom + CUT_MARGIN,
    },
  };
}
