/**
 * The engine's lower bound: the three networks it must run, timed alone on inputs of exactly their
 * own size (no resizing, no pre- or post-processing, no Human around them), after warm-up, on the
 * same thread and WASM backend as a render. Whatever the rest of the pipeline does, a render cannot
 * take less than these plus decoding the upload and encoding the artwork.
 */
import { loadFaceModels, loadHuman } from '../src/models.js';

interface Tensor {
  shape: number[];
  data(): Promise<unknown>;
}
interface GraphModel {
  inputs: { shape?: number[] }[];
  execute(input: Tensor): Tensor | Tensor[];
}
/** The parts of Human and tfjs this measurement reaches past the engine's own model wrapper for. */
interface HumanInternals {
  models: { models: Record<string, GraphModel | null> };
  tf: {
    zeros(shape: number[]): Tensor;
    dispose(tensors: Tensor | Tensor[]): void;
    env(): { getAsync(flag: string): Promise<unknown> };
  };
}

export interface NetworkTimes {
  /** Median milliseconds per network, by Human's model name. */
  medians: Record<'blazeface' | 'facemesh' | 'selfie', number>;
  /** Input size of each network, e.g. "256×256". */
  inputs: Record<'blazeface' | 'facemesh' | 'selfie', string>;
  simd: boolean;
  threads: boolean;
}

const NETWORKS = ['blazeface', 'facemesh', 'selfie'] as const;

export async function timeNetworks(runs: number, warmup: number): Promise<NetworkTimes> {
  const human = (await loadHuman()) as unknown as HumanInternals;
  const { tf } = human;
  // The detector a selfie is found with: the short-range BlazeFace (the full-range one only reads
  // photos whose faces are small).
  const [shortRange] = (await loadFaceModels()).detectors;
  const models: Record<string, GraphModel | null> = {
    ...human.models.models,
    blazeface: (shortRange?.model ?? null) as GraphModel | null,
  };
  const medians = {} as NetworkTimes['medians'];
  const inputs = {} as NetworkTimes['inputs'];
  for (const name of NETWORKS) {
    const model = models[name];
    const shape = model?.inputs[0]?.shape;
    if (!model || !shape) throw new Error(`Human has not loaded its ${name} model`);
    // A batch of one at the network's own resolution (FaceMesh's batch dimension is open).
    const input = tf.zeros(shape.map((side) => (side > 0 ? side : 1)));
    const once = async () => {
      const output = model.execute(input);
      const outputs = Array.isArray(output) ? output : [output];
      // Reading one output waits for the whole graph.
      await outputs[0]?.data();
      tf.dispose(outputs);
    };
    for (let i = 0; i < warmup; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await once();
      times.push(performance.now() - start);
    }
    tf.dispose(input);
    times.sort((a, b) => a - b);
    medians[name] = times[Math.floor(times.length / 2)] as number;
    inputs[name] = `${shape[2]}×${shape[1]}`;
  }
  const simd = (await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) === true;
  const threads = (await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')) === true;
  return { medians, inputs, simd, threads };
}
