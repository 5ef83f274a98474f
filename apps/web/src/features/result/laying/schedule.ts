import {
  IN_POST,
  IN_STORY,
  LAYING_PHASES,
  type LayingPhase,
  type LayingPlan,
  type PlanBox,
} from '@selfie-mosaic/contract';

/** The pictures a plan lays: the 4:5 post and the 9:16 story. */
export type LayingFormat = 'post' | 'story';

interface FormatView {
  /** The tessera's `formats` bit that puts it in this picture. */
  bit: number;
  size(plan: LayingPlan): { width: number; height: number };
  /** Rows of this picture below the 4:5's: a tessera's centre y plus this. */
  offset(plan: LayingPlan): number;
  window(plan: LayingPlan): PlanBox;
  /** What lies over the mosaic inside the window and shows from the start, like the frame (empty: nothing). */
  over(plan: LayingPlan): PlanBox;
}

const NO_BOX: PlanBox = { left: 0, top: 0, right: 0, bottom: 0 };

/** How each picture reads the plan (one row per format). */
export const FORMAT_VIEWS: Record<LayingFormat, FormatView> = {
  post: {
    bit: IN_POST,
    size: (plan) => ({ width: plan.width, height: plan.height }),
    offset: () => 0,
    window: (plan) => plan.windows.post,
    over: () => NO_BOX,
  },
  story: {
    bit: IN_STORY,
    size: (plan) => ({ width: plan.story.width, height: plan.story.height }),
    offset: (plan) => plan.story.offset,
    window: (plan) => plan.windows.story,
    over: (plan) => plan.windows.plaque,
  },
};

/**
 * The pace of each phase: its share of the reveal and how long one of its tesserae takes to settle,
 * as fractions of the whole. The outlines take their time so they read as being drawn; the fill and
 * the background come faster and faster.
 */
export const PACE: Record<LayingPhase, { share: number; flight: number }> = {
  lines: { share: 0.25, flight: 0.11 },
  figure: { share: 0.4, flight: 0.085 },
  background: { share: 0.35, flight: 0.065 },
};

/**
 * Within a phase the tesserae come slightly apart at first and closer together at its end: the
 * i-th of n lands at `ease(i / n)` of the phase's time. 0 is an even pace; at most 1.
 */
const QUICKENING = 0.3;
const ease = (x: number) => x + QUICKENING * x * (1 - x);

export interface LayingSchedule {
  /** The plan's tessera indices shown in this picture, in the order they land. */
  order: Uint32Array;
  /** When each (by its place in `order`) sets off, in ms from the start. */
  start: Float32Array;
  /** When each lands, never earlier than the one before it; the last at `durationMs`. */
  land: Float32Array;
  /** The longest flight, so a frame need only look that far past the tesserae that have landed. */
  longestFlightMs: number;
  durationMs: number;
}

/**
 * The timetable of a reveal of `durationMs`: the picture's tesserae by phase (lines, figure,
 * background), in plan order within each, the first setting off at 0 and the last landing at
 * `durationMs`. A phase the picture lacks gives its time to the others.
 */
export function layingSchedule(plan: LayingPlan, format: LayingFormat, durationMs: number): LayingSchedule {
  const { bit } = FORMAT_VIEWS[format];
  const byPhase = LAYING_PHASES.map(() => [] as number[]);
  for (let t = 0; t < plan.count; t++)
    if (((plan.formats[t] as number) & bit) !== 0) byPhase[plan.phase[t] as number]?.push(t);

  const present = LAYING_PHASES.filter((_, p) => (byPhase[p]?.length ?? 0) > 0);
  const totalShare = present.reduce((sum, phase) => sum + PACE[phase].share, 0);
  const count = byPhase.reduce((sum, list) => sum + list.length, 0);
  const order = new Uint32Array(count);
  const start = new Float32Array(count);
  const land = new Float32Array(count);
  // Landings run from when the first tessera, setting off at 0, can land, to the end.
  const firstFlight = present[0] ? PACE[present[0]].flight * durationMs : 0;
  const span = Math.max(0, durationMs - firstFlight);
  let longestFlightMs = 0;
  let at = 0;
  let phaseFrom = firstFlight;
  LAYING_PHASES.forEach((phase, p) => {
    const list = byPhase[p] ?? [];
    if (list.length === 0) return;
    const length = (span * PACE[phase].share) / totalShare;
    const flightMs = Math.min(PACE[phase].flight * durationMs, firstFlight);
    longestFlightMs = Math.max(longestFlightMs, flightMs);
    // The first phase's first tessera lands as soon as it can; each later phase's follows its predecessor's last.
    const first = at === 0 ? 1 : 0;
    const steps = Math.max(1, list.length - first);
    list.forEach((tessera, i) => {
      const landing = phaseFrom + length * ease((i + 1 - first) / steps);
      order[at] = tessera;
      land[at] = landing;
      start[at] = landing - flightMs;
      at++;
    });
    phaseFrom += length;
  });
  // Rounding must not leave the last landing a hair off the end.
  if (count > 0) land[count - 1] = durationMs;
  return { order, start, land, longestFlightMs, durationMs };
}
