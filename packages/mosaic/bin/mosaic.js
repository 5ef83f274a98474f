#!/usr/bin/env node
// `npx mosaic in.jpg out.jpg` from anywhere in the repository: runs the compiled CLI (src/cli.ts), which
// `npm install` builds (the root `prepare` script) and `npm run build` rebuilds.
const cli = new URL('../dist/cli.js', import.meta.url);
try {
  await import(cli.href);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(cli.pathname)) throw error;
  console.error('The art engine is not built yet: run `npm run build` at the repository root, then try again.');
  process.exitCode = 1;
}
