import { frameOverlay } from './brand-frame.js';
import { loadHuman } from './models.js';

export { MosaicRefusal } from './refusal.js';
export { type RenderOptions, type RenderResult, render } from './render.js';

/**
 * Loads the face and segmentation models and prepares both frames, once per process or worker
 * thread. Idempotent: later calls return at once. Call it at worker start so the first visitor
 * does not wait for it.
 */
export async function loadModels(): Promise<void> {
  await Promise.all([loadHuman(), frameOverlay('standard'), frameOverlay('blacklabel')]);
}
