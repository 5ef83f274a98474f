#!/usr/bin/env node
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { check } from './checks.js';
import { loadModels, MosaicRefusal, render } from './index.js';

const usage = 'Usage: mosaic <in.jpg> <out.jpg> [--blacklabel] [--seed N] [--story story.jpg] [--plan plan.bin]';

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const { values, positionals, seed } = parsed;
  const [input, output] = positionals;
  if (!input || !output || positionals.length > 2) {
    console.error(usage);
    return 2;
  }
  const started = performance.now();
  await loadModels();
  console.log(`models  ${(performance.now() - started).toFixed(1)} ms`);
  try {
    const story = values.story !== undefined;
    const plan = values.plan !== undefined;
    const result = await render(await readFile(input), { blacklabel: values.blacklabel, seed, story, plan });
    await writeFile(output, result.jpeg);
    if (values.story !== undefined && result.story) await writeFile(values.story, result.story.jpeg);
    if (values.plan !== undefined && result.plan) {
      await writeFile(values.plan, result.plan);
      console.log(`${values.plan}: laying plan, ${Math.round(result.plan.byteLength / 1024)} KB`);
    }
    for (const [stage, ms] of Object.entries(result.timings)) console.log(`${stage.padEnd(11)} ${ms.toFixed(1)} ms`);
    console.log(
      `${output}: ${result.width}×${result.height}, ${result.tiles} tiles, ${Math.round(result.jpeg.byteLength / 1024)} KB`,
    );
    if (values.story !== undefined && result.story) {
      const { width, height, jpeg } = result.story;
      console.log(`${values.story}: ${width}×${height} story version, ${Math.round(jpeg.byteLength / 1024)} KB`);
    }
    console.log('(a first render in a fresh process includes JIT warm-up; `npm run bench` measures warm renders)');
    return 0;
  } catch (error) {
    if (error instanceof MosaicRefusal) {
      console.error(`Refused (${error.code}): ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function parse() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      blacklabel: { type: 'boolean', default: false },
      seed: { type: 'string' },
      story: { type: 'string' },
      plan: { type: 'string' },
    },
  });
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  check(seed === undefined || Number.isInteger(seed), '--seed', 'an integer', values.seed);
  return { values, positionals, seed };
}

process.exitCode = await main();
