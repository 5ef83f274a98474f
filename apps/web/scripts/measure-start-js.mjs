#!/usr/bin/env node
/**
 * JavaScript a visitor downloads to see the start screen, from the build's manifest: the entry chunk,
 * its static imports, the start screen's lazy chunk and i18next's (the screens preloaded on idle are not counted).
 * Prints one JSON line: { files, bytes, gzip, brotli } so benchmarks can record it.
 *   node apps/web/scripts/measure-start-js.mjs [distDir]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));

const files = new Set();
function addWithImports(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) addWithImports(imported);
}

addWithImports('index.html');
// Lazy chunks every first visit loads too: the start screen itself and i18next (fetched with the copy).
for (const [name, pattern] of [
  ['start screen', /features\/age-gate\/StartScreen\.tsx$/],
  // i18next's own entry, or the shared chunk `_i18next-….js` once a screen (the consent line's Trans) imports it too.
  ['i18next', /node_modules\/i18next\/|^_i18next-/],
]) {
  const key = Object.keys(manifest).find((candidate) => pattern.test(candidate));
  if (!key) throw new Error(`The manifest has no ${name} chunk`);
  addWithImports(key);
}

let bytes = 0;
let gzip = 0;
let brotli = 0;
for (const file of files) {
  const source = readFileSync(path.join(dist, file));
  bytes += source.length;
  gzip += gzipSync(source, { level: 9 }).length;
  brotli += brotliCompressSync(source).length;
}
console.log(JSON.stringify({ files: [...files], bytes, gzip, brotli }));
