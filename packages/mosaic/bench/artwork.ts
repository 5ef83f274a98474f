/**
 * Artwork measures per test photo: how hand-laid the mosaic looks (tessera orientation against the
 * contours, rectangularity, size spread per region, grout) and whether it is still the visitor
 * (face-api's reading), beside the same figures for the engine as it was before issue 14
 * (`baseline-today.json`). Writes its section of BENCHMARKS.md between the artwork markers; the
 * engine bench runs it too. Run: `npm run bench:artwork -w packages/mosaic`; with `--baseline` it
 * stores this engine's figures as the baseline instead. Method: README, "How the artwork is measured".
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModels } from '../src/index.js';
import { renderDetailed } from '../src/render.js';
import { type AndamentoMeasures, measureRender } from '../src/testing/andamento-measures.js';
import { loadFaceApi } from '../src/testing/face-api.js';
import type { GroutMeasure } from '../src/testing/grout.js';
import { type Likeness, likenessOf, sourceFace } from '../src/testing/likeness.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from '../src/testing/photos.js';

const root = join(import.meta.dirname, '..', '..', '..');
const benchmarks = join(root, 'BENCHMARKS.md');
const baselineFile = join(import.meta.dirname, 'baseline-today.json');

/** Every photo the quality tests use, and the close phone crop. */
export const PHOTOS = [
  ...PORTRAIT_NAMES.map((name) => ({ name, load: () => portrait(name) })),
  { name: 'close-crop', load: closeCrop },
];
const VARIANTS = ['standard', 'blacklabel'] as const;
type Variant = (typeof VARIANTS)[number];

export interface PhotoFigures {
  name: string;
  tiles: number;
  /** Orientation, rectangularity and sizes are the tiles' (alike in both variants); grout and likeness per variant. */
  orientation: AndamentoMeasures['orientation'];
  rectangularity: AndamentoMeasures['rectangularity'];
  size: AndamentoMeasures['size'];
  grout: Record<Variant, GroutMeasure>;
  likeness: Record<Variant, Likeness>;
  /** Milliseconds the measures took on the standard render (face-api not included). */
  measureMs: number;
}

export interface Baseline {
  commit: string;
  measured: string;
  photos: PhotoFigures[];
}

export async function measurePhotos(): Promise<PhotoFigures[]> {
  await Promise.all([loadModels(), loadFaceApi()]);
  const figures: PhotoFigures[] = [];
  for (const { name, load } of PHOTOS) {
    const photo = await load();
    const standard = await renderDetailed(photo);
    const blacklabel = await renderDetailed(photo, { blacklabel: true });
    const start = performance.now();
    const measures = measureRender(standard);
    const measureMs = performance.now() - start;
    const dark = measureRender(blacklabel);
    const source = await sourceFace(standard);
    const missing = { found: false, landmarks: Number.NaN, descriptor: Number.NaN };
    figures.push({
      name,
      tiles: standard.tiles,
      orientation: measures.orientation,
      rectangularity: measures.rectangularity,
      size: measures.size,
      grout: { standard: measures.grout, blacklabel: dark.grout },
      likeness: {
        standard: source ? await likenessOf(standard, source) : missing,
        blacklabel: source ? await likenessOf(blacklabel, source) : missing,
      },
      measureMs,
    });
    console.log(`${name}: measured in ${measureMs.toFixed(0)} ms`);
  }
  return figures;
}

/** A figure with its baseline: "today → now", or just the figure when there is no baseline. */
function pair(now: number, today: number | undefined, format: (v: number) => string): string {
  const shown = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? '–' : format(v));
  return today === undefined ? shown(now) : `${shown(today)} → ${shown(now)}`;
}
const fixed = (digits: number) => (v: number) => v.toFixed(digits);
const percent = (digits: number) => (v: number) => `${(v * 100).toFixed(digits)} %`;
const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : Number.NaN;
};

/** The section; `stored` names the commit when these figures were just stored as the baseline. */
export function artworkSection(now: PhotoFigures[], baseline: Baseline | undefined, stored?: string): string {
  const before = (name: string) => baseline?.photos.find((p) => p.name === name);
  const shapeRows = now.map((p) => {
    const b = before(p.name);
    const cell = (read: (f: PhotoFigures) => number, format: (v: number) => string) =>
      pair(read(p), b ? (read(b) ?? Number.NaN) : undefined, format);
    return [
      p.name,
      cell((f) => f.tiles, fixed(0)),
      `${cell((f) => f.orientation.median, fixed(1))} (chance ${p.orientation.random.toFixed(1)} / ${p.orientation.shuffled.toFixed(1)}; ${p.orientation.tiles} tiles, ${(p.orientation.squares * 100).toFixed(0)} % squares)`,
      cell((f) => f.rectangularity.median, fixed(2)),
      `${cell((f) => f.size.face.cv, fixed(2))} / ${cell((f) => f.size.body.cv, fixed(2))} / ${cell((f) => f.size.background.cv, fixed(2))}`,
      `${cell((f) => f.size.face.median, fixed(0))} / ${cell((f) => f.size.body.median, fixed(0))} / ${cell((f) => f.size.background.median, fixed(0))}`,
      `${cell((f) => f.grout.standard.coverage, percent(1))} / ${cell((f) => f.grout.blacklabel.coverage, percent(1))}`,
      `${cell((f) => f.grout.standard.meanWidth, fixed(2))} (CV ${cell((f) => f.grout.standard.widthCv, fixed(2))})`,
    ];
  });
  const likenessRows = now.map((p) => {
    const b = before(p.name);
    return [
      p.name,
      ...VARIANTS.flatMap((v) => {
        const cell = (read: (l: Likeness) => number, format: (x: number) => string) =>
          pair(read(p.likeness[v]), b ? read(b.likeness[v]) : undefined, format);
        return [
          pair(p.likeness[v].found ? 1 : 0, b ? (b.likeness[v].found ? 1 : 0) : undefined, (x) =>
            x ? 'yes' : '**no**',
          ),
          cell((l) => l.landmarks, percent(1)),
          cell((l) => l.descriptor, fixed(3)),
        ];
      }),
    ];
  });
  const overall = (read: (f: PhotoFigures) => number, format: (v: number) => string) =>
    pair(median(now.map(read)), baseline ? median(baseline.photos.map(read)) : undefined, format);
  const table = (header: string[], rows: string[][]) =>
    [
      `| ${header.join(' | ')} |`,
      `| ${header.map(() => '---').join(' | ')} |`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  const likenessOk = now.every((p) =>
    VARIANTS.every((v) => p.likeness[v].found && p.likeness[v].landmarks <= 0.08 && p.likeness[v].descriptor <= 0.5),
  );
  return [
    '<!-- artwork:start -->',
    '## Artwork measures (`npm run bench:artwork -w packages/mosaic`, also part of `npm run bench`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on every test photo (the six face-api demo crops of ` +
      '`src/testing/photos.ts` and the close phone crop), seed 1. How each figure is taken: the engine README, ' +
      '"How the artwork is measured". ' +
      (baseline
        ? `Each cell is **today → now**: "today" is the engine before issue 14 (commit ${baseline.commit.slice(0, 10)}, ` +
          '`packages/mosaic/bench/baseline-today.json`), "now" this checkout.'
        : stored
          ? `These figures are stored as the baseline, "today" (commit ${stored.slice(0, 10)}, \`packages/mosaic/bench/baseline-today.json\`).`
          : 'No baseline stored.'),
    '',
    `Over the photos (medians): orientation **${overall((f) => f.orientation.median, fixed(1))}°** (target ≤ 15°; tesserae laid ` +
      `at random would give ${overall((f) => f.orientation.random, fixed(1))}°, each paired with another's contour ${overall((f) => f.orientation.shuffled, fixed(1))}°), rectangularity **${overall((f) => f.rectangularity.median, fixed(2))}** ` +
      `(target ≥ 0.8), size CV in the face ${overall((f) => f.size.face.cv, fixed(2))}, body ${overall((f) => f.size.body.cv, fixed(2))}, ` +
      `background ${overall((f) => f.size.background.cv, fixed(2))}; grout ${overall((f) => f.grout.standard.coverage, percent(1))} of the window ` +
      `(standard), joint width CV ${overall((f) => f.grout.standard.widthCv, fixed(2))}.`,
    '',
    table(
      [
        'photo',
        'tiles',
        'orientation ° (chance: random / shuffled)',
        'rectangularity',
        'size CV face / body / bg',
        'median area px² face / body / bg',
        'grout standard / black label',
        'joint width px (CV)',
      ],
      shapeRows,
    ),
    '',
    `Likeness (face-api, the independent judge): face found in the artwork, worst eye/nose/mouth landmark as a share of the face width ` +
      `(limit 8 %), descriptor distance (limit 0.5). ${likenessOk ? 'Every photo passes in both variants.' : '**Some photo fails a limit.**'}`,
    '',
    table(
      ['photo', 'standard: found', 'landmarks', 'descriptor', 'black label: found', 'landmarks', 'descriptor'],
      likenessRows,
    ),
    '',
    `The measures take ${median(now.map((p) => p.measureMs)).toFixed(0)} ms per render (median; face-api's readings not included).`,
    '<!-- artwork:end -->',
  ].join('\n');
}

export async function readBaseline(): Promise<Baseline | undefined> {
  try {
    return JSON.parse(await readFile(baselineFile, 'utf8'), (_, v) => (v === null ? Number.NaN : v)) as Baseline;
  } catch {
    return undefined;
  }
}

/** Measures every photo and writes the artwork section of BENCHMARKS.md (or, with `baseline`, the baseline file). */
export async function runArtworkBench({ baseline = false } = {}): Promise<string> {
  const start = performance.now();
  const figures = await measurePhotos();
  let commit: string | undefined;
  if (baseline) {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const stored: Baseline = { commit, measured: new Date().toISOString(), photos: figures };
    await writeFile(baselineFile, `${JSON.stringify(stored, (_, v) => (Number.isNaN(v) ? null : v), 2)}\n`);
  }
  const section = artworkSection(figures, baseline ? undefined : await readBaseline(), commit);
  const existing = await readFile(benchmarks, 'utf8').catch(() => '# Benchmarks\n');
  const pattern = /<!-- artwork:start -->[\s\S]*?<!-- artwork:end -->/;
  const updated = pattern.test(existing) ? existing.replace(pattern, section) : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(benchmarks, updated);
  console.log(section);
  console.log(`Artwork measures: ${((performance.now() - start) / 1000).toFixed(1)} s for ${figures.length} photos.`);
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runArtworkBench({ baseline: process.argv.includes('--baseline') });
}
