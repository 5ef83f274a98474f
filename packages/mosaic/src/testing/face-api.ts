import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The independent judge for the quality tests: face-api's SSD MobileNet detector, 68-point
 * landmarks and face-recognition descriptor, on TensorFlow.js's WASM backend with weights read
 * from the npm package. The engine itself uses Human, so these checks do not mark its own homework.
 */
export interface FaceReading {
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** 68 points, x/y in image pixels (iBUG order). */
  landmarks: { x: number; y: number }[];
  descriptor: Float32Array;
}

interface FaceApi {
  tf: {
    tensor3d(values: Float32Array, shape: [number, number, number], dtype: 'float32'): { dispose(): void };
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
  };
  nets: Record<
    'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet',
    { loadFromDisk(path: string): Promise<void> }
  >;
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): {
    withFaceLandmarks(): {
      withFaceDescriptors(): Promise<
        {
          detection: { score: number; box: { x: number; y: number; width: number; height: number } };
          landmarks: { positions: { x: number; y: number }[] };
          descriptor: Float32Array;
        }[]
      >;
    };
  };
  euclideanDistance(a: Float32Array, b: Float32Array): number;
}

const require = createRequire(import.meta.url);
const packageDir = join(dirname(require.resolve('@vladmandic/face-api')), '..');
let loaded: Promise<FaceApi> | undefined;

export function loadFaceApi(): Promise<FaceApi> {
  loaded ??= (async () => {
    const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(path: string): void };
    wasm.setWasmPaths(`${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..', 'dist')}/`);
    const faceapi = require(join(packageDir, 'dist', 'face-api.node-wasm.js')) as FaceApi;
    await faceapi.tf.setBackend('wasm');
    await faceapi.tf.ready();
    const models = join(packageDir, 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(models);
    return faceapi;
  })();
  return loaded;
}

/** Every face face-api finds in an RGB image, largest first. */
export async function readFaces(rgb: Uint8Array, width: number, height: number): Promise<FaceReading[]> {
  const faceapi = await loadFaceApi();
  const tensor = faceapi.tf.tensor3d(Float32Array.from(rgb), [height, width, 3], 'float32');
  try {
    const found = await faceapi
      .detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.3, maxResults: 10 }))
      .withFaceLandmarks()
      .withFaceDescriptors();
    return found
      .map((f) => ({
        box: {
          x: f.detection.box.x,
          y: f.detection.box.y,
          width: f.detection.box.width,
          height: f.detection.box.height,
        },
        score: f.detection.score,
        landmarks: f.landmarks.positions.map((p) => ({ x: p.x, y: p.y })),
        descriptor: f.descriptor,
      }))
      .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  } finally {
    tensor.dispose();
  }
}

export async function descriptorDistance(a: Float32Array, b: Float32Array): Promise<number> {
  return (await loadFaceApi()).euclideanDistance(a, b);
}
