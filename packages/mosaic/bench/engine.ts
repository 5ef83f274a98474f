/**
 * Engine benchmark: median and p95 of every render stage on 1080×1350 output after warm-up, peak
 * memory, and — on the same photo and output size, in the same run — a plain decode→resize→encode
 * pass (the floor) and Debian's metapixel making a classic photomosaic (the peer). Writes its
 * section of BENCHMARKS.md between the engine markers, then the artwork measures (`artwork.ts`)
 * into theirs. Run: `npm run bench -w packages/mosaic`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PerformanceEntry, PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { loadModels, render } from '../src/index.js';
import { LAYOUT } from '../src/layout.js';
import { renderDetailed } from '../src/render.js';
import { scratchBytes } from '../src/scratch.js';
import { reducedLuma, toRgb } from '../src/testing/images.js';
import { PORTRAIT_NAMES, portrait } from '../src/testing/photos.js';
import { ssim } from '../src/testing/ssim.js';
import { runArtworkBench } from './artwork.js';
import { timeNetworks } from './networks.js';

/** util-linux's, on every Debian: the bench holds itself to one core, as a render in the worker pool has one. */
const TASKSET = '/usr/bin/taskset';
const ONE_CORE = '0';
if (!process.env.MOSAIC_BENCH_ONE_CORE && existsSync(TASKSET)) {
  const pinned = spawnSync(
    TASKSET,
    ['--cpu-list', ONE_CORE, process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, MOSAIC_BENCH_ONE_CORE: ONE_CORE } },
  );
  process.exit(pinned.status ?? 1);
}
const oneCore = Boolean(process.env.MOSAIC_BENCH_ONE_CORE);

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
const METAPIXEL_RUNS = 3;
const root = join(import.meta.dirname, '..', '..', '..');
const benchmarks = join(root, 'BENCHMARKS.md');

// One core per render, as in the server's worker pool (one worker thread per core).
sharp.concurrency(1);

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
const median = (values: number[]) => quantile(values, 0.5);
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

// The photo: a portrait as the web app uploads it (long side 1600 px, JPEG), head upright as in
// most selfies; a strongly tilted head (sample 1, 45°) is timed separately below.
const asUpload = async (name: string) =>
  sharp(await portrait(name))
    .resize(1280, 1600, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
const upload = await asUpload('sample6');
const tilted = await asUpload('sample1');

const loadStart = performance.now();
await loadModels();
const modelLoad = performance.now() - loadStart;

for (let i = 0; i < WARMUP; i++) await render(upload, { seed: i });
const stages: Record<string, number[]> = {};
const cpu: number[] = [];
let tiles = 0;
// Garbage collections during the timed renders, by kind, and the time they took on the render's thread.
const collections: PerformanceEntry[] = [];
const gcObserver = new PerformanceObserver((list) => collections.push(...list.getEntries()));
gcObserver.observe({ entryTypes: ['gc'] });
for (let i = 0; i < RUNS; i++) {
  const before = process.cpuUsage();
  const result = await render(upload, { seed: i });
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  tiles = result.tiles;
  for (const [stage, value] of Object.entries(result.timings)) {
    stages[stage] = [...(stages[stage] ?? []), value];
  }
}
// Entries are delivered after the render that caused them: wait a turn of the event loop for the last.
await new Promise((resolve) => setImmediate(resolve));
gcObserver.disconnect();
const gcKind = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
const gc = {
  minor: collections.filter((entry) => gcKind(entry) === perf.NODE_PERFORMANCE_GC_MINOR).length / RUNS,
  major: collections.filter((entry) => gcKind(entry) === perf.NODE_PERFORMANCE_GC_MAJOR).length / RUNS,
  ms: collections.reduce((sum, entry) => sum + entry.duration, 0) / RUNS,
};
const peakRss = process.resourceUsage().maxRSS / 1024;
const tiltedTotals: number[] = [];
for (let i = 0; i < Math.ceil(RUNS / 3); i++) tiltedTotals.push((await render(tilted, { seed: i })).timings.total ?? 0);

// The story version's cost: the same photo rendered alone and with its story version, alternately, so
// both see the same load; wall clock and CPU time of each.
const storyRuns = { alone: [] as number[], both: [] as number[], aloneCpu: [] as number[], bothCpu: [] as number[] };
const storyStage: number[] = [];
let storyBytes = 0;
for (let i = 0; i < RUNS; i++) {
  let before = process.cpuUsage();
  const alone = await render(upload, { seed: i });
  let used = process.cpuUsage(before);
  storyRuns.alone.push(alone.timings.total ?? 0);
  storyRuns.aloneCpu.push((used.user + used.system) / 1000);
  before = process.cpuUsage();
  const both = await render(upload, { seed: i, story: true });
  used = process.cpuUsage(before);
  storyRuns.both.push(both.timings.total ?? 0);
  storyRuns.bothCpu.push((used.user + used.system) / 1000);
  storyStage.push(both.timings.story ?? 0);
  storyBytes = Math.max(storyBytes, both.story?.jpeg.byteLength ?? 0);
}

// The laying plan's cost, as a job's render makes it: the story render with and without the plan
// (and the plan's gzip, which the worker thread does too), alternately, CPU time of each.
const planRuns = { without: [] as number[], with: [] as number[], withoutCpu: [] as number[], withCpu: [] as number[] };
const planStage: number[] = [];
for (let i = 0; i < RUNS; i++) {
  let before = process.cpuUsage();
  const without = await render(upload, { seed: i, story: true });
  let used = process.cpuUsage(before);
  planRuns.without.push(without.timings.total ?? 0);
  planRuns.withoutCpu.push((used.user + used.system) / 1000);
  before = process.cpuUsage();
  const start = performance.now();
  const withPlan = await render(upload, { seed: i, story: true, plan: true });
  gzipSync(withPlan.plan as Uint8Array);
  planRuns.with.push(performance.now() - start);
  used = process.cpuUsage(before);
  planRuns.withCpu.push((used.user + used.system) / 1000);
  planStage.push(withPlan.timings.plan ?? 0);
}
// Its size as served (gzip) on every test photo, both variants.
const planSizes: number[] = [];
for (const name of PORTRAIT_NAMES) {
  for (const blacklabel of [false, true]) {
    const { plan } = await render(await asUpload(name), { story: true, plan: true, blacklabel });
    planSizes.push(gzipSync(plan as Uint8Array).byteLength);
  }
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

const extra = (a: number[], b: number[]) => `${((median(b) / median(a) - 1) * 100).toFixed(0)} %`;

const floor = await time(
  () => sharp(upload).rotate().resize(1080, 1350, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer(),
  RUNS,
);
const networks = await timeNetworks(RUNS, WARMUP);

// metapixel: a library of small tiles cut from the other demo photos, then a classic photomosaic
// of the same framed portrait at 1080×1350 with 18-px tiles (about as many tiles as the engine's).
/** SSIM at 1/10 size against the framed photo: whole frame, and the windows that see only the visitor. */
async function likeness(rgb: Uint8Array, detail: Awaited<ReturnType<typeof renderDetailed>>) {
  const w = LAYOUT.width / 10;
  const h = LAYOUT.height / 10;
  const a = await reducedLuma(rgb, LAYOUT.width, LAYOUT.height, [w, h]);
  const b = await reducedLuma(detail.framed.data, LAYOUT.width, LAYOUT.height, [w, h]);
  const person = (x: number, y: number) => {
    const ax = x * 10 + 5;
    const ay = y * 10 + 5;
    if (
      ax < LAYOUT.border ||
      ax >= LAYOUT.width - LAYOUT.border ||
      ay < LAYOUT.border ||
      ay >= LAYOUT.height - LAYOUT.band
    ) {
      return 0;
    }
    return (detail.personByTile[detail.labels[ay * LAYOUT.width + ax] as number] as number) >= 0.5 ? 1 : 0;
  };
  const visitorOnly = (cx: number, cy: number) => {
    let sum = 0;
    for (let y = cy - 5; y <= cy + 5; y++) for (let x = cx - 5; x <= cx + 5; x++) sum += person(x, y);
    return sum / 121 >= 0.9;
  };
  return { frame: ssim(a, b, w, h), visitor: ssim(a, b, w, h, visitorOnly) };
}
const detail = await renderDetailed(upload);
const ours = await likeness((await toRgb(detail.jpeg)).data, detail);

let metapixel:
  | { times: number[]; prepare: number; library: number; similarity: { frame: number; visitor: number } }
  | { missing: string };
const work = await mkdtemp(join(tmpdir(), 'mosaic-bench-'));
try {
  execFileSync('bash', [join(root, 'scripts', 'ensure-metapixel.sh')], { stdio: 'inherit' });
  const sources = join(work, 'sources');
  const library = join(work, 'library');
  await mkdir(sources);
  await mkdir(library);
  let n = 0;
  for (const name of PORTRAIT_NAMES.filter((n) => n !== 'sample6')) {
    const photo = await portrait(name);
    const { width = 0, height = 0 } = await sharp(photo).metadata();
    for (let y = 0; y + 64 <= height; y += 48) {
      for (let x = 0; x + 64 <= width; x += 48) {
        await sharp(photo)
          .extract({ left: x, top: y, width: 64, height: 64 })
          .png()
          .toFile(join(sources, `t${n++}.png`));
      }
    }
  }
  const prepareStart = performance.now();
  execFileSync('metapixel-prepare', ['--width=18', '--height=18', sources, library], { stdio: 'ignore' });
  const prepare = performance.now() - prepareStart;
  const framed = detail.framed;
  const input = join(work, 'framed.png');
  await sharp(framed.data, { raw: { width: framed.width, height: framed.height, channels: 3 } })
    .png()
    .toFile(input);
  const times: number[] = [];
  for (let i = 0; i < METAPIXEL_RUNS; i++) {
    const start = performance.now();
    execFileSync(
      'metapixel',
      ['--library', library, '--width=18', '--height=18', '--metapixel', input, join(work, 'out.png')],
      { stdio: 'ignore' },
    );
    times.push(performance.now() - start);
  }
  const mosaic = await sharp(join(work, 'out.png')).removeAlpha().resize(LAYOUT.width, LAYOUT.height).raw().toBuffer();
  metapixel = { times, prepare, library: n, similarity: await likeness(new Uint8Array(mosaic), detail) };
} catch (error) {
  metapixel = { missing: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error) };
} finally {
  await rm(work, { recursive: true, force: true });
}

// Memory per worker: RSS of a fresh process running one, then two worker threads that have loaded
// the models and rendered, as in the server's pool. A single reading now and then catches garbage
// not yet collected (100 MB and more), so each is the median of three processes.
const MEMORY_RUNS = 3;
const photoFile = join(tmpdir(), `mosaic-bench-${process.pid}.jpg`);
await writeFile(photoFile, upload);
const rssWithWorkers = (count: number) =>
  median(
    Array.from({ length: MEMORY_RUNS }, () =>
      Number(
        execFileSync(
          process.execPath,
          ['--conditions=source', '--import', 'tsx', join(import.meta.dirname, 'memory.ts'), String(count), photoFile],
          { encoding: 'utf8' },
        ).trim(),
      ),
    ),
  );
const oneWorker = rssWithWorkers(1);
const twoWorkers = rssWithWorkers(2);
await rm(photoFile, { force: true });

const total = stages.total ?? [];
const rows = Object.entries(stages).map(
  ([stage, values]) => `| ${stage} | ${ms(median(values))} | ${ms(quantile(values, 0.95))} |`,
);
const floorMedian = median(floor);
const stage = (name: string) => median(stages[name] ?? []);
const networkTotal = networks.medians.blazeface + networks.medians.facemesh + networks.medians.selfie;
/** What ≤ 3× the floor leaves once the floor's own decode and encode and the networks are paid for. */
const budget = 3 * floorMedian - floorMedian - networkTotal;
const restOfRender = median(stages.total ?? []) - networkTotal - stage('decode') - stage('encode');
const heapFlags = process.execArgv
  .filter((arg) => /^--(initial-old-space-size|heap-growing-percent)=/.test(arg))
  .join(' ');
const lines = [
  '<!-- engine:start -->',
  '## Art engine (`npm run bench -w packages/mosaic`)',
  '',
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus()[0]?.model ?? 'unknown CPU'} ` +
    `(${cpus().length} cores, shared with other work; load average ${(await readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ')[0]}), ` +
    `Node ${process.version} (${heapFlags || 'default V8 heap'}, as the server's render process), sharp concurrency 1 and ` +
    `${oneCore ? "the whole process held to one core (`taskset`: V8's collector and sharp share it)" : 'free to use every core (no `taskset` here)'}, ` +
    'as a render in the worker pool has one core. ' +
    `Photo: a 1280×1600 JPEG portrait (face-api demo sample 6 crop, head upright); output 1080×1350; ${tiles} tiles; ` +
    `${RUNS} renders after ${WARMUP} warm-up renders.`,
  '',
  '| stage | median | p95 |',
  '| --- | --- | --- |',
  ...rows,
  '',
  `- A head tilted 45° (sample 1) is levelled, then FaceMesh reads it again upright: whole render median ${ms(median(tiltedTotals))} ` +
    `over ${tiltedTotals.length} renders.`,
  `- **Story version** (1080×1920, \`render(photo, { story: true })\`), ${RUNS} renders alone and ${RUNS} with it, alternating, same run: ` +
    `whole render median ${ms(median(storyRuns.alone))} alone, ${ms(median(storyRuns.both))} with the story version, ` +
    `**+${extra(storyRuns.alone, storyRuns.both)}** wall clock (target ≤ 25 %); CPU time median ${ms(median(storyRuns.aloneCpu))} and ` +
    `${ms(median(storyRuns.bothCpu))}, +${extra(storyRuns.aloneCpu, storyRuns.bothCpu)} (both JPEGs are encoded at once, so CPU time grows more than the wall clock). ` +
    `Its own stage (new background tiles, painting, frame) median ${ms(median(storyStage))}; the rest is its JPEG; largest story JPEG ${(storyBytes / 1024).toFixed(0)} KB.`,
  `- **Laying plan** (every tessera's polygon, colour and place in the laying order, \`render(photo, { story: true, plan: true })\` and its gzip, as a job's render makes it), ` +
    `${RUNS} story renders without it and ${RUNS} with it, alternating, same run: CPU time median ${ms(median(planRuns.withoutCpu))} without, ` +
    `${ms(median(planRuns.withCpu))} with, **+${extra(planRuns.withoutCpu, planRuns.withCpu)}** (target ≤ 5 %); wall clock ${ms(median(planRuns.without))} and ` +
    `${ms(median(planRuns.with))}; its own stage median ${ms(median(planStage))}. As served (gzip) on the ${PORTRAIT_NAMES.length} test photos in both variants: ` +
    `median ${kb(median(planSizes))}, largest ${kb(Math.max(...planSizes))} (target ≤ 150 KB).`,
  `- Model load (once per worker thread, \`loadModels()\`): ${ms(modelLoad)}.`,
  `- Memory: peak RSS of this process (models, one render at a time) ${peakRss.toFixed(0)} MB; a process with one worker thread ` +
    `${oneWorker.toFixed(0)} MB, with two ${twoWorkers.toFixed(0)} MB (medians of ${MEMORY_RUNS} processes), so about **${(twoWorkers - oneWorker).toFixed(0)} MB per worker** (target ≤ 400 MB). ` +
    `Of a thread's, its working arrays in the engine's WebAssembly memory (kept for the next render): ${(scratchBytes() / 2 ** 20).toFixed(0)} MB after these renders.`,
  `- Floor, plain decode → resize → encode of the same photo to 1080×1350: median ${ms(floorMedian)}; ` +
    `the render takes **${(median(total) / floorMedian).toFixed(1)}×** the floor (target ≤ 5× on one core).`,
  `- Garbage collection during the timed renders: ${gc.minor.toFixed(2)} scavenges and ${gc.major.toFixed(2)} full collections a render, ` +
    `${ms(gc.ms)} a render on the render's thread (${((gc.ms / median(total)) * 100).toFixed(1)} % of the median render).`,
  `- Lower bound, the networks alone (zero inputs at their own size, no Human around them, after warm-up; tfjs WASM, ` +
    `${networks.simd ? 'SIMD' : 'no SIMD'}, ${networks.threads ? 'threads available' : 'one thread'}): ` +
    `short-range BlazeFace ${networks.inputs.blazeface} ${ms(networks.medians.blazeface)} + FaceMesh ${networks.inputs.facemesh} ` +
    `${ms(networks.medians.facemesh)} + selfie segmentation ${networks.inputs.selfie} ${ms(networks.medians.selfie)} = ` +
    `${ms(networkTotal)}, **${(networkTotal / floorMedian).toFixed(1)}×** the floor. With the floor's own decode and encode ` +
    `that is ${((networkTotal + floorMedian) / floorMedian).toFixed(1)}× before anything is framed, tessellated or painted: ` +
    `≤ 3× would leave ${ms(Math.max(0, budget))} for everything else (framing, the networks' pre- and post-processing, ` +
    `5,000 tiles, 1.5 Mpx of painting, the frame); the render spends ${ms(restOfRender)} there.`,
  'missing' in metapixel
    ? `- metapixel could not run here: ${metapixel.missing}`
    : `- Debian metapixel 1.0.2, classic photomosaic of the same framed photo at 1080×1350 with 18-px tiles: ` +
      `median ${ms(median(metapixel.times))} over ${METAPIXEL_RUNS} runs (library of ${metapixel.library} tiles from the other demo photos; its preparation, ${ms(metapixel.prepare)}, not counted); ` +
      `the engine is **${(median(metapixel.times) / median(total)).toFixed(1)}×** faster (target ≥ 3×).`,
  `- Likeness, SSIM at 1/10 size against the framed photo — engine: ${ours.visitor.toFixed(3)} on the windows that see only the visitor, ` +
    `${ours.frame.toFixed(3)} on the whole frame (its background is the campaign pattern by design)` +
    ('missing' in metapixel
      ? '.'
      : `; metapixel: ${metapixel.similarity.visitor.toFixed(3)} and ${metapixel.similarity.frame.toFixed(3)}.`),
  `- Whole render median ${ms(median(total))}, p95 ${ms(quantile(total, 0.95))} wall clock (target ≤ 200 ms median on one core); ` +
    `CPU time per render (all threads of the process) median ${ms(median(cpu))}, p95 ${ms(quantile(cpu, 0.95))} — ` +
    'the wall clock is inflated whenever other work shares the cores.',
  '<!-- engine:end -->',
];
const section = lines.join('\n');
const existing = await readFile(benchmarks, 'utf8').catch(() => '# Benchmarks\n');
const pattern = /<!-- engine:start -->[\s\S]*?<!-- engine:end -->/;
const updated = pattern.test(existing) ? existing.replace(pattern, section) : `${existing.trimEnd()}\n\n${section}\n`;
await writeFile(benchmarks, updated);
console.log(section);

// The artwork's own measures per test photo, beside today's engine (its own section).
await runArtworkBench();
