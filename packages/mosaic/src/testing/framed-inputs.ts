import { loadModels } from '../index.js';
import type { ModelMask } from '../person-mask.js';
import { type Decoded, decode, type Framed, findFace, frame, segment } from '../stages.js';
import { closeCrop, portrait } from './photos.js';

/** A test photo taken through the render's first stages: decoded, its face found, framed, segmented. */
export interface FramedInputs {
  decoded: Decoded;
  framed: Framed;
  person: ModelMask;
}

/**
 * The real inputs of the framing and person-mask loops for a test portrait (`close` is the close
 * crop, whose photo does not fill the canvas). The working image lives in scratch memory: the
 * next render or `frame` overwrites it, so it is copied out.
 */
export async function framedInputs(name: string | 'close'): Promise<FramedInputs> {
  await loadModels();
  const decoded = await decode(name === 'close' ? await closeCrop() : await portrait(name));
  const framed = await frame(decoded, await findFace(decoded));
  const half = { ...framed.half, data: framed.half.data.slice() };
  const person = await segment({ ...framed, half });
  return { decoded, framed: { ...framed, half }, person: { ...person, mask: person.mask.slice() } };
}
