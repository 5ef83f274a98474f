import { IN_POST, IN_STORY } from '@selfie-mosaic/contract';
import { describe, expect, it } from 'vitest';
import { syntheticPlan } from '../../../test/laying-plan';
import { layingSchedule } from './schedule';

const plan = syntheticPlan();
const DURATION = 5000;

describe('the laying schedule', () => {
  it('lays each picture’s tesserae: the post’s, and the story’s with its own rows', () => {
    const post = layingSchedule(plan, 'post', DURATION);
    const story = layingSchedule(plan, 'story', DURATION);
    const shown = (bit: number) => [...plan.formats.keys()].filter((t) => ((plan.formats[t] as number) & bit) !== 0);
    expect([...post.order].sort((a, b) => a - b)).toEqual(shown(IN_POST));
    expect([...story.order].sort((a, b) => a - b)).toEqual(shown(IN_STORY));
    expect(story.order.length).toBeGreaterThan(post.order.length);
  });

  it('lays the lines, then the figure, then the background, each in plan order', () => {
    const { order } = layingSchedule(plan, 'post', DURATION);
    const phases = [...order].map((t) => plan.phase[t] as number);
    expect(phases).toEqual([...phases].sort((a, b) => a - b));
    expect(new Set(phases)).toEqual(new Set([0, 1, 2]));
    for (let i = 1; i < order.length; i++) {
      if (phases[i] === phases[i - 1]) expect(order[i] as number).toBeGreaterThan(order[i - 1] as number);
    }
  });

  it('starts at 0, lands in order, and lands the last tessera exactly at the end', () => {
    const { start, land, longestFlightMs } = layingSchedule(plan, 'post', DURATION);
    expect(Math.min(...start)).toBeCloseTo(0, 3);
    for (let i = 1; i < land.length; i++) expect(land[i] as number).toBeGreaterThanOrEqual(land[i - 1] as number);
    expect(land.at(-1)).toBe(DURATION);
    for (let i = 0; i < land.length; i++) {
      const flight = (land[i] as number) - (start[i] as number);
      expect(flight).toBeGreaterThan(0);
      expect(flight).toBeLessThanOrEqual(longestFlightMs + 1e-3);
    }
  });

  it('gives the outlines a quarter of the time and quickens towards the end', () => {
    const { order, land } = layingSchedule(plan, 'post', DURATION);
    const lastOf = (phase: number) => land[[...order].findLastIndex((t) => plan.phase[t] === phase)] as number;
    expect(lastOf(0) / DURATION).toBeGreaterThan(0.28);
    expect(lastOf(0) / DURATION).toBeLessThan(0.38);
    expect(lastOf(1) / DURATION).toBeGreaterThan(0.6);
    // Tesserae per second: the background's last tenth comes faster than the outline's first.
    const rate = (from: number, to: number) => land.filter((t) => t >= from && t < to).length / (to - from);
    expect(rate(0.9 * DURATION, DURATION)).toBeGreaterThan(2 * rate(0, 0.25 * DURATION));
  });

  it('gives a missing phase’s time to the others', () => {
    const noLines = syntheticPlan();
    noLines.formats = noLines.formats.map((f, t) => (noLines.phase[t] === 0 ? 0 : f));
    const { order, land } = layingSchedule(noLines, 'post', DURATION);
    expect([...order].some((t) => noLines.phase[t] === 0)).toBe(false);
    expect(land[0] as number).toBeLessThan(0.15 * DURATION);
    expect(land.at(-1)).toBe(DURATION);
  });

  it('makes an empty timetable of a plan without tesserae in the picture', () => {
    const none = syntheticPlan();
    none.formats = none.formats.map(() => IN_STORY);
    expect(layingSchedule(none, 'post', DURATION).order).toHaveLength(0);
  });
});
