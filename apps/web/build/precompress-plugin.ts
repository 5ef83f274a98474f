import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|json|svg|html|txt|map|wasm|bin)$/;

/**
 * Writes `.br` and `.gz` next to every compressible asset of the build (text, and the face guide's WASM and
 * weights), at the highest levels (done once at build time, not per request), for a static server that
 * serves precompressed files.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'selfie-mosaic:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      for (const entry of entries) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const source = await readFile(file);
        if (source.length < 1024) continue;
        const brotli = brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        });
        await writeFile(`${file}.br`, brotli);
        await writeFile(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}
