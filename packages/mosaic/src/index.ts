import { type Art, DEFAULT_ART } from './art.js';
import { frameOverlay } from './brand-frame.js';
import { loadFaceModels } from './models.js';

export { type Art, DEFAULT_ART } from './art.js';
export { MosaicRefusal } from './refusal.js';
export { type EncodedImage, type RenderOptions, type RenderResult, render } from './render.js';

/**
 * Loads the face and segmentation models and prepares the art's frames (both variants, both formats), once per process or worker
 * thread. Idempotent: later calls return at once. Call it at worker start so the first visitor
 * does not wait for it.
 */
export async function loadModels(art: Art = DEFAULT_ART): Promise<void> {
  await Promise.all([
    loadFaceModels(),
    ...(['standard', 'blacklabel'] as const).flatMap((variant) => [
      frameOverlay(art, variant, 'post'),
      frameOverlay(art, variant, 'story'),
    ]),
  ]);
}
