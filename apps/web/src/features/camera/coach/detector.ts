import { Human } from '@vladmandic/human';
import { FRAME_SIDE } from './detector-size';
import { type Observation, observe } from './observation';

/** A preview frame and the long side of the photo a capture would make from it. */
export interface Frame {
  bitmap: ImageBitmap;
  photoLongSide: number;
}

export type Detect = (frame: Frame) => Promise<Observation>;

/** The few parts of Human's API the guide uses. */
interface HumanFace {
  box: [number, number, number, number];
  score: number;
}
interface HumanInstance {
  load(): Promise<void>;
  models: { models: Record<string, { executor?: unknown } | null | undefined> };
  detect(input: ImageData): Promise<{ face: HumanFace[]; error?: string | null }>;
}

/**
 * Human with BlazeFace alone (no mesh, no other model): the same detector the engine runs first on
 * the server, on tfjs's WASM backend. Model and WASM come from our own origin (`__FACE_GUIDE_ASSETS__`).
 */
function guideConfig() {
  return {
    backend: 'wasm',
    wasmPath: __FACE_GUIDE_ASSETS__,
    modelBasePath: __FACE_GUIDE_ASSETS__,
    debug: false,
    async: true,
    warmup: 'none',
    // Every frame is read afresh: the guide needs to see the visitor move.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { modelPath: 'blazeface.json', rotation: false, maxDetected: 4, minConfidence: 0.4, return: false },
      mesh: { enabled: false },
      iris: { enabled: false },
      attention: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}

type Canvas = OffscreenCanvas | HTMLCanvasElement;

function createCanvas(): Canvas {
  return typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
}

/** Loads the detector (in a worker, or on the page when workers cannot) and returns what reads one frame. */
export async function loadDetector(): Promise<Detect> {
  const human = new (Human as unknown as new (config: unknown) => HumanInstance)(guideConfig());
  await human.load();
  // Human logs a model it could not fetch and goes on with an empty graph: without BlazeFace there is no guide.
  if (!human.models.models.blazeface?.executor) throw new Error('The face guide’s model did not load');
  const canvas = createCanvas();
  const context = canvas.getContext('2d', { willReadFrequently: true }) as
    | OffscreenCanvasRenderingContext2D
    | CanvasRenderingContext2D
    | null;
  if (!context) throw new Error('Canvas 2D is not available for the face guide');
  return async ({ bitmap, photoLongSide }) => {
    const scale = Math.min(1, FRAME_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const image = context.getImageData(0, 0, width, height);
    const result = await human.detect(image);
    if (result.error) throw new Error(result.error);
    const boxes = result.face.map(({ box: [x, y, w, h], score }) => ({ x, y, width: w, height: h, score }));
    return observe({ data: image.data, width, height, channels: 4 }, boxes, photoLongSide);
  };
}
