import { dominantFace, FACE_LIMITS, isFaceTooSmall, isTooDark } from '@selfie-mosaic/contract';
import { describe, expect, it } from 'vitest';
import {
  adviseFrame,
  COACH_TIMING,
  type CoachState,
  INITIAL_COACH,
  nextCoachState,
  readyToShoot,
  visibleArea,
} from './coach';
import aside from './fixtures/aside.json';
import dark from './fixtures/dark.json';
import good from './fixtures/good.json';
import near from './fixtures/near.json';
import small from './fixtures/small.json';
import two from './fixtures/two.json';
import type { Observation } from './observation';

// What the browser's detector saw in real camera pictures (recorded by e2e/support/record-coach-fixtures.ts).
const scenes: Record<string, Observation> = { good, small, dark, two, near, aside };

/** The same frame with the face moved by `dx` frame pixels. */
function moved(frame: Observation, dx: number): Observation {
  return { ...frame, faces: frame.faces.map((face) => ({ ...face, x: face.x + dx })) };
}

/** Feeds frames one every `every` ms from t = 0 and returns the states after each. */
function play(frames: Observation[], every = 70): CoachState[] {
  const states: CoachState[] = [];
  let state = INITIAL_COACH;
  frames.forEach((frame, i) => {
    state = nextCoachState(state, frame, i * every);
    states.push(state);
  });
  return states;
}

describe('the advice for one camera picture', () => {
  it.each([
    ['good', 'good'],
    ['small', 'closer'],
    ['near', 'moveBack'],
    ['aside', 'centre'],
    ['dark', 'moreLight'],
    ['two', 'onlyYou'],
  ])('a %s picture gets “%s”', (scene, advice) => {
    expect(adviseFrame(scenes[scene] as Observation)).toBe(advice);
  });

  it('asks the visitor to look into the camera when no face is seen', () => {
    expect(adviseFrame({ ...good, faces: [] })).toBe('noFace');
  });

  it('asks to hold still when the face moved between two frames, not for the jitter of a still face', () => {
    expect(adviseFrame(moved(good, -20), good)).toBe('holdStill');
    expect(adviseFrame(moved(good, 2), good)).toBe('good');
  });

  it('lets a much smaller face in the background pass, as the engine does', () => {
    const passerBy = { ...(good.faces[0] as Observation['faces'][number]), x: 0, y: 0, width: 40, height: 40 };
    expect(adviseFrame({ ...good, faces: [...good.faces, passerBy] })).toBe('good');
  });

  it('reads the size the viewfinder shows: a landscape camera’s frame is cropped to 4:5', () => {
    expect(visibleArea(640, 480)).toEqual({ x: 128, y: 0, width: 384, height: 480 });
    expect(visibleArea(480, 640)).toEqual({ x: 0, y: 20, width: 480, height: 600 });
  });
});

describe('a pose the guide calls good is never refused by the engine’s rules', () => {
  it('holds for the recorded good picture and for any face the guide passes', () => {
    let checked = 0;
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 5000; i++) {
      const size = 20 + random() * 200;
      const frame: Observation = {
        ...good,
        imageLuma: random() * 255,
        faces: Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
          x: random() * 120,
          y: random() * 150,
          width: size * (0.4 + random()),
          height: size,
          score: 0.9,
          luma: random() * 255,
        })),
      };
      if (i === 0) frame.faces = good.faces;
      if (adviseFrame(frame) !== 'good') continue;
      checked++;
      const subject = frame.faces[dominantFace(frame.faces) ?? -1];
      expect(subject).toBeDefined();
      if (!subject) continue;
      expect(isTooDark({ imageLuma: frame.imageLuma, faceLuma: subject.luma })).toBe(false);
      // Even if the face were only half as wide as the detector's box.
      const longSide = Math.max(frame.width, frame.height);
      const photoScale = frame.photoLongSide / longSide;
      expect(isFaceTooSmall({ faceWidth: subject.width / 2, longSide, photoScale })).toBe(false);
    }
    expect(checked).toBeGreaterThan(20);
    expect(FACE_LIMITS.minFaceLuma).toBeGreaterThan(0);
  });
});

describe('the advice over time', () => {
  it('shows the first advice at once, then changes only once a new one has held', () => {
    const states = play([small, small, ...Array.from({ length: 14 }, () => good)]);
    expect(states[0]?.shown).toBe('closer');
    expect(states[2]?.shown).toBe('closer');
    // The face that came closer moved (frame 2: hold still); from frame 3 it is good and still.
    const switched = states.findIndex((state) => state.shown === 'good');
    expect(switched).toBeGreaterThan(0);
    expect(switched * 70 - 3 * 70).toBeGreaterThanOrEqual(COACH_TIMING.settleMs);
  });

  it('does not flicker when a face sits at the edge of a limit', () => {
    const frames = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? small : good));
    const shown = new Set(play(frames).map((state) => state.shown));
    expect(shown.size).toBe(1);
  });

  it('is ready to shoot after the face has been good for about a second, and not before', () => {
    const frames = Array.from({ length: 30 }, () => good);
    const states = play(frames, 100);
    const firstReady = states.findIndex((state, i) => readyToShoot(state, i * 100));
    expect(firstReady * 100).toBeGreaterThanOrEqual(COACH_TIMING.goodForMs);
    expect(firstReady * 100).toBeLessThanOrEqual(COACH_TIMING.goodForMs + 200);
  });

  it('starts the second over when the visitor moves away from the good pose', () => {
    let state = INITIAL_COACH;
    for (let t = 0; t <= 800; t += 100) state = nextCoachState(state, good, t);
    for (let t = 900; t <= 1500; t += 100) state = nextCoachState(state, small, t);
    expect(state.shown).toBe('closer');
    expect(readyToShoot(state, 1500)).toBe(false);
    for (let t = 1600; t <= 2600; t += 100) state = nextCoachState(state, good, t);
    expect(readyToShoot(state, 2600)).toBe(false);
  });
});
