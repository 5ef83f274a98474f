import { dominantFace, type FaceBox, isFaceTooSmall, isTooDark } from '@selfie-mosaic/contract';
import type { Observation, SeenFace } from './observation';

/** What the guide asks of the visitor, most basic first; `good` means the photo can be taken. */
export const COACH_ADVICE = [
  'noFace',
  'onlyYou',
  'moreLight',
  'closer',
  'moveBack',
  'centre',
  'holdStill',
  'good',
] as const;
export type CoachAdvice = (typeof COACH_ADVICE)[number];

/**
 * The guide's own targets for a pleasing portrait. They sit well inside the engine's refusal rules
 * (the contract's), with room for what differs between a preview frame and the uploaded photo: the
 * detector, the resolution and the JPEG.
 */
export const COACH_TARGETS = {
  /** The circle's centre and size as shares of the viewfinder (FaceGuide's ellipse: 50, 56 in 100 × 125). */
  centre: { x: 0.5, y: 0.448 },
  /**
   * The detector's box as a share of the viewfinder's width: narrower asks to come closer, wider (or
   * taller than `maxHeight` of its height) to move back. BlazeFace's box takes in hair and chin, about
   * 1.6 times the cheek-to-cheek width the engine measures: 0.55 is a face about a third of the view.
   */
  minWidth: 0.55,
  maxWidth: 0.95,
  maxHeight: 0.9,
  /** The engine's size rule reads the cheek-to-cheek width; the box is taken as twice that (on the safe side). */
  boxToFace: 2,
  /** How far the face's centre may stray from the circle's, as a share of the viewfinder's width. */
  maxOffset: 0.15,
  /** The guide asks for this much more light than the engine needs. */
  lightMargin: 1.25,
  /** A second face counts as a rival this much earlier than the engine's dominance rule (on area). */
  rivalMargin: 1.5,
  /** Movement between two frames, as a share of the face's width, above which the visitor should hold still. */
  maxMove: 0.12,
} as const;

/** Timing of the messages: a new advice must last this long to be shown; good this long to start the countdown. */
export const COACH_TIMING = { settleMs: 450, goodForMs: 1000 } as const;

/** The part of the camera's frame the viewfinder shows (it covers a 4:5 box, cropping the rest). */
export function visibleArea(width: number, height: number, aspect = 4 / 5): FaceBox {
  if (width / height > aspect) {
    const visibleWidth = height * aspect;
    return { x: (width - visibleWidth) / 2, y: 0, width: visibleWidth, height };
  }
  const visibleHeight = width / aspect;
  return { x: 0, y: (height - visibleHeight) / 2, width, height: visibleHeight };
}

function centreOf(box: FaceBox) {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The subject, or undefined when another face is close to its size (with the guide's margin). */
function subjectOf(faces: SeenFace[]): SeenFace | undefined {
  const largest = faces.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const grown = Math.sqrt(COACH_TARGETS.rivalMargin);
  const index = dominantFace(
    faces.map((face) => (face === largest ? face : { width: face.width * grown, height: face.height * grown })),
  );
  return index === undefined ? undefined : faces[index];
}

/** The advice for one frame, given the one before it (for movement). */
export function adviseFrame(frame: Observation, previous?: Observation): CoachAdvice {
  if (frame.faces.length === 0) return 'noFace';
  const face = subjectOf(frame.faces);
  if (!face) return 'onlyYou';
  const margin = COACH_TARGETS.lightMargin;
  if (isTooDark({ imageLuma: frame.imageLuma / margin, faceLuma: face.luma / margin })) return 'moreLight';
  const view = visibleArea(frame.width, frame.height);
  const longSide = Math.max(frame.width, frame.height);
  const photoScale = frame.photoLongSide / longSide;
  if (
    face.width < COACH_TARGETS.minWidth * view.width ||
    isFaceTooSmall({ faceWidth: face.width, longSide, photoScale })
  ) {
    return 'closer';
  }
  if (face.width > COACH_TARGETS.maxWidth * view.width || face.height > view.height * 0.9) return 'moveBack';
  const centre = centreOf(face);
  const dx = centre.x - (view.x + COACH_TARGETS.centre.x * view.width);
  const dy = centre.y - (view.y + COACH_TARGETS.centre.y * view.height);
  if (Math.hypot(dx, dy) > COACH_TARGETS.maxOffset * view.width) return 'centre';
  const before = previous?.faces.length ? subjectOf(previous.faces) : undefined;
  if (before) {
    const was = centreOf(before);
    const moved = Math.hypot(centre.x - was.x, centre.y - was.y) + Math.abs(face.width - before.width);
    if (moved > COACH_TARGETS.maxMove * face.width) return 'holdStill';
  }
  return 'good';
}

/** The guide between frames: what it shows, what it is about to show, and since when. */
export interface CoachState {
  shown: CoachAdvice | null;
  candidate: CoachAdvice | null;
  candidateSince: number;
  /** When the shown advice became `good`. */
  goodSince: number | null;
  last?: Observation;
}

export const INITIAL_COACH: CoachState = { shown: null, candidate: null, candidateSince: 0, goodSince: null };

/**
 * The next state after a frame seen at `now` (ms). An advice is shown only once it has held for
 * `settleMs`, so a face at the edge of a limit does not make the message flicker between two.
 */
export function nextCoachState(state: CoachState, frame: Observation, now: number): CoachState {
  const advice = adviseFrame(frame, state.last);
  const candidateSince = advice === state.candidate ? state.candidateSince : now;
  const settled = state.shown === null || now - candidateSince >= COACH_TIMING.settleMs;
  const shown = advice !== state.shown && settled ? advice : state.shown;
  const goodSince = shown !== 'good' ? null : state.shown === 'good' ? state.goodSince : now;
  return { shown, candidate: advice, candidateSince, goodSince, last: frame };
}

/** Whether the face has been good long enough for the countdown to start by itself. */
export function readyToShoot(state: CoachState, now: number): boolean {
  return state.goodSince !== null && now - state.goodSince >= COACH_TIMING.goodForMs;
}
