import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JobsRound, jobsRound, uploadPhoto } from './jobs-bench.js';
import { machine, median, table, writeSection } from './report.js';
import { checkOut, flagsOf, root, type Tree } from './worktree.js';

/**
 * The engine's speed targets are ratios to the engine as it was, on one core: issue 27 asks a job's render
 * (the 4:5 and its story version) and the 4:5 alone at no more than TARGET_RENDER_RATIO of the time before,
 * and TARGET_JOBS_RATIO times the jobs per second with 2 workers. The shared 2-core machines here are too
 * unsteady for absolute figures (the same engine's render time swings widely as other work comes and goes;
 * BENCHMARKS.md notes the load of each run), so this bench runs the
 * engine and the service of the commit before the issue (`BEFORE`, default below) against this checkout's,
 * taking turns in short blocks on the same machine at the same time, and reports their ratios.
 *
 * Each side runs as it was shipped: its engine with the V8 flags its engine bench (and render process)
 * used, its server as its `npm start` started it. `npm run bench:before-after -w bench` writes its
 * section of BENCHMARKS.md.
 */

/** The last commit before issue 27 (the engine's hot loops in WebAssembly SIMD). */
const BEFORE_ISSUE_27 = 'c10cc794bb45f7b189fe54b0b667e5a445a908b1';
const BEFORE = process.env.BEFORE ?? BEFORE_ISSUE_27;
/**
 * Renders per turn, and turns per side. On a loud machine 12 turns of 4 were too few: one run's median
 * of the one-core pair ratios read well above the ratio of its medians.
 */
const RENDERS_PER_TURN = 8;
const TURNS = Number(process.env.BEFORE_AFTER_TURNS ?? 16);
const JOB_ROUNDS = Number(process.env.BEFORE_AFTER_JOB_ROUNDS ?? 3);
/** util-linux's, on every Debian; the core both engines share in the one-core turns. */
const TASKSET = '/usr/bin/taskset';
const ONE_CORE = 0;
const TARGET_RENDER_RATIO = 0.7;
const TARGET_JOBS_RATIO = 1.35;

interface Side {
  name: string;
  dir: string;
  engineFlags: string[];
  serverFlags: string[];
}

interface Turns {
  wall: number[];
  cpu: number[];
}

interface Compared {
  before: Turns;
  now: Turns;
  /** Per pair of turns: now's median over before's, wall clock and CPU. */
  ratios: Turns;
}

/**
 * A render process per side, each on its own engine, asked in turn for a few renders. Both
 * processes and all their threads (V8's collector, sharp's) are held to the same single core
 * (`taskset`), as the issue's "on one core" asks: work a render hands to helper threads then counts
 * in its wall clock too, as it does when two workers fill both cores.
 */
async function renderTurns(sides: [Side, Side], photoFile: string, { story }: { story: boolean }): Promise<Compared> {
  const children: ChildProcess[] = [];
  try {
    for (const side of sides) {
      const nodeArgs = [...side.engineFlags, '--conditions=source', '--import', 'tsx'];
      const child = fork(
        join(import.meta.dirname, 'render-turns.ts'),
        [join(side.dir, 'packages/mosaic/src/index.ts'), photoFile],
        {
          cwd: join(side.dir, 'packages/mosaic'),
          execPath: TASKSET,
          execArgv: ['--cpu-list', String(ONE_CORE), process.execPath, ...nodeArgs],
          env: { ...process.env, STORY: story ? '1' : '0' },
        },
      );
      children.push(child);
      await new Promise<void>((ready, fail) => {
        child.once('message', () => ready());
        child.once('exit', (code) => fail(new Error(`${side.name}'s engine exited (${code})`)));
      });
    }
    const compared: Compared = {
      before: { wall: [], cpu: [] },
      now: { wall: [], cpu: [] },
      ratios: { wall: [], cpu: [] },
    };
    const turn = (index: 0 | 1) =>
      new Promise<Turns>((done) => {
        const child = children[index] as ChildProcess;
        child.once('message', (reply: Turns) => done(reply));
        child.send(RENDERS_PER_TURN);
      });
    for (let t = 0; t < TURNS; t++) {
      // Who goes first alternates, so neither always follows the other.
      const order: (0 | 1)[] = t % 2 === 0 ? [0, 1] : [1, 0];
      const got: Turns[] = [];
      for (const index of order) got[index] = await turn(index);
      const [before, now] = got as [Turns, Turns];
      for (const key of ['wall', 'cpu'] as const) {
        compared.before[key].push(...before[key]);
        compared.now[key].push(...now[key]);
        compared.ratios[key].push(median(now[key]) / median(before[key]));
      }
    }
    return compared;
  } finally {
    for (const child of children) child.kill();
  }
}

/** The machine's one-minute load average: the runs share its cores with whatever else runs. */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

async function main() {
  const started = performance.now();
  const loads = [loadAverage()];
  const tree: Tree = checkOut(BEFORE);
  try {
    const sides: [Side, Side] = [
      { name: `before (${BEFORE.slice(0, 7)})`, ...tree },
      { name: 'now', dir: root, ...flagsOf(root) },
    ];
    const photo = await uploadPhoto();
    const scratch = mkdtempSync(join(tmpdir(), 'selfie-mosaic-photo-'));
    const photoFile = join(scratch, 'upload.jpg');
    writeFileSync(photoFile, photo);
    const renders: Record<string, Compared> = {};
    try {
      renders.job = await renderTurns(sides, photoFile, { story: true });
      loads.push(loadAverage());
      renders.post = await renderTurns(sides, photoFile, { story: false });
      loads.push(loadAverage());
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    const jobs: [JobsRound[], JobsRound[]] = [[], []];
    for (let round = 0; round < JOB_ROUNDS; round++) {
      for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const side = sides[index] as Side;
        const result = await jobsRound(photo, 2, { checkout: side.dir, nodeFlags: side.serverFlags });
        console.error(side.name, JSON.stringify(result));
        (jobs[index as 0 | 1] as JobsRound[]).push(result);
      }
    }
    loads.push(loadAverage());
    writeSection('before-after', report(sides, renders, jobs, (performance.now() - started) / 60_000, loads));
  } finally {
    tree.remove();
  }
}

function report(
  sides: [Side, Side],
  renders: Record<string, Compared>,
  jobs: [JobsRound[], JobsRound[]],
  minutes: number,
  loads: number[],
) {
  const [before, now] = sides;
  const flags = (list: string[]) => (list.length ? list.map((f) => `\`${f}\``).join(' ') : 'none');
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const ratio = (v: number) => `× ${v.toFixed(3)}`;
  const renderRow = (label: string, { before: b, now: n, ratios }: Compared) => [
    label,
    `${ms(median(b.wall))} → ${ms(median(n.wall))}`,
    `${ratio(median(ratios.wall))} (${ratio(median(n.wall) / median(b.wall))})`,
    `${ms(median(b.cpu))} → ${ms(median(n.cpu))}`,
    ratio(median(ratios.cpu)),
  ];
  const of = (rounds: JobsRound[], key: keyof JobsRound) => median(rounds.map((r) => r[key] as number));
  const jobsRatios = jobs[1].map((r, i) => r.jobsPerSecond / ((jobs[0][i] as JobsRound).jobsPerSecond as number));
  const job = renders.job as Compared;
  const post = renders.post as Compared;
  const jobRatio = median(job.ratios.wall);
  const postRatio = median(post.ratios.wall);
  const jobsRatio = median(jobsRatios);
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  return [
    '## Before and after issue 27, side by side (`npm run bench:before-after -w bench`)',
    '',
    `${machine()}. The engine and the service of ${BEFORE.slice(0, 7)}${BEFORE === BEFORE_ISSUE_27 ? ', the last commit before issue 27,' : ''} against`,
    `this checkout's, on the same machine at the same time: two engine processes take turns of ${RENDERS_PER_TURN} renders of the`,
    `bench photo (1280×1600 JPEG, sample 6), ${TURNS} turns each after 5 warm-up renders, both held to one core`,
    "(`taskset`: the collector's and sharp's helper threads share it), first a job's render (the 4:5 and its story",
    `version), then the 4:5 alone; then ${JOB_ROUNDS} jobs-bench rounds`,
    'of each server (2 workers), alternating. Each side runs as it shipped: V8 flags for the engine',
    `${flags(before.engineFlags)} before and ${flags(now.engineFlags)} now; for the server process ${flags(before.serverFlags)}`,
    `before and ${flags(now.serverFlags)} now. The whole run took ${minutes.toFixed(1)} min; the load average read`,
    `${loads.map((load) => load.toFixed(1)).join(', ')} at its start, between its parts and at its end.`,
    '',
    table(
      [
        'render',
        'wall median, before → now',
        'ratio: median of turn pairs (of the medians)',
        'CPU median, before → now',
        'ratio',
      ],
      [renderRow("a job's render, 4:5 and story, on one core", job), renderRow('the 4:5 alone, on one core', post)],
    ),
    '',
    table(
      ['service, 2 workers', 'before', 'now', 'ratio now ÷ before (median of rounds)'],
      [
        ['jobs/s', of(jobs[0], 'jobsPerSecond').toFixed(2), of(jobs[1], 'jobsPerSecond').toFixed(2), ratio(jobsRatio)],
        [
          'CPU per job: HTTP + render process',
          `${of(jobs[0], 'httpCpuMsPerJob').toFixed(0)} + ${of(jobs[0], 'renderCpuMsPerJob').toFixed(0)} ms`,
          `${of(jobs[1], 'httpCpuMsPerJob').toFixed(0)} + ${of(jobs[1], 'renderCpuMsPerJob').toFixed(0)} ms`,
          '',
        ],
      ],
    ),
    '',
    `The issue's targets: a job's render ${ratio(TARGET_RENDER_RATIO)} of before: now ${ratio(jobRatio)}, ${verdict(jobRatio <= TARGET_RENDER_RATIO)};`,
    `the 4:5 alone ${ratio(TARGET_RENDER_RATIO)}: now ${ratio(postRatio)}, ${verdict(postRatio <= TARGET_RENDER_RATIO)}; jobs per second ${ratio(TARGET_JOBS_RATIO)}:`,
    `now ${ratio(jobsRatio)}, ${verdict(jobsRatio >= TARGET_JOBS_RATIO)}.`,
  ].join('\n');
}

await main();
