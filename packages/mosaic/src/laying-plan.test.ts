import { gzipSync } from 'node:zlib';
import {
  decodeLayingPlan,
  IN_POST,
  IN_STORY,
  LAYING_PHASES,
  LAYING_PLAN_MAX_BYTES,
  type LayingPlan,
  type PlanBox,
} from '@selfie-mosaic/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ART } from './art.js';
import { createPalette } from './colour.js';
import { TILE_SIZES } from './detail.js';
import { loadModels, type RenderResult, render } from './index.js';
import { toRgb } from './testing/images.js';
import { PORTRAIT_NAMES, portrait } from './testing/photos.js';

/**
 * The laying plan a browser plays the artwork's laying from: every tessera once, in the order a
 * mosaicist lays them, small enough to send with the result and made of nothing but the artwork.
 */

/** Marks the pixels a convex polygon covers (by pixel centre) in a coverage map of the given box. */
function fill(covered: Uint8Array, box: PlanBox, width: number, corners: [number, number][]): void {
  const ys = corners.map(([, y]) => y);
  const top = Math.max(box.top, Math.ceil(Math.min(...ys) - 0.5));
  const bottom = Math.min(box.bottom - 1, Math.floor(Math.max(...ys) - 0.5));
  for (let y = top; y <= bottom; y++) {
    const yc = y + 0.5;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < corners.length; i++) {
      const [ax, ay] = corners[i] as [number, number];
      const [bx, by] = corners[(i + 1) % corners.length] as [number, number];
      if ((ay <= yc && by >= yc) || (by <= yc && ay >= yc)) {
        const x = ay === by ? Math.min(ax, bx) : ax + ((yc - ay) / (by - ay)) * (bx - ax);
        const x2 = ay === by ? Math.max(ax, bx) : x;
        lo = Math.min(lo, x);
        hi = Math.max(hi, x2);
      }
    }
    for (let x = Math.max(box.left, Math.ceil(lo - 0.5)); x <= Math.min(box.right - 1, Math.floor(hi - 0.5)); x++) {
      covered[y * width + x] = 1;
    }
  }
}

function corners(plan: LayingPlan, i: number, shift: number): [number, number][] {
  const out: [number, number][] = [];
  for (let v = plan.vertexStart[i] as number; v < (plan.vertexStart[i + 1] as number); v++) {
    out.push([
      (plan.x[i] as number) + (plan.vertices[v * 2] as number),
      (plan.y[i] as number) + shift + (plan.vertices[v * 2 + 1] as number),
    ]);
  }
  return out;
}

/** Share of the window's pixels (but the plaque's, which lies over the mosaic) that the tesserae of one picture cover. */
function coverage(plan: LayingPlan, format: number, box: PlanBox, width: number, height: number, shift: number) {
  const { plaque } = plan.windows;
  const underPlaque = (x: number, y: number) =>
    format === IN_STORY && x >= plaque.left && x < plaque.right && y >= plaque.top && y < plaque.bottom;
  const covered = new Uint8Array(width * height);
  for (let i = 0; i < plan.count; i++) {
    if (((plan.formats[i] as number) & format) !== 0) fill(covered, box, width, corners(plan, i, shift));
  }
  let inside = 0;
  let open = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      if (underPlaque(x, y)) continue;
      open++;
      inside += covered[y * width + x] as number;
    }
  }
  return inside / open;
}

describe.each(PORTRAIT_NAMES)('the laying plan of %s', (name) => {
  let result: RenderResult;
  let plan: LayingPlan;
  const blacklabel = name === 'sample2';

  beforeAll(async () => {
    await loadModels();
    result = await render(await portrait(name), { story: true, plan: true, blacklabel });
    plan = decodeLayingPlan(result.plan as Uint8Array);
  });

  it('is small enough to serve with the result', () => {
    expect(gzipSync(result.plan as Uint8Array).byteLength).toBeLessThanOrEqual(LAYING_PLAN_MAX_BYTES);
  });

  it('holds nothing but the campaign palettes: no colour of the photo', () => {
    const { colours } = DEFAULT_ART;
    const variant = blacklabel ? colours.blacklabel : colours.standard;
    const campaign = [...createPalette(colours.portrait).rgb, ...createPalette(variant.pattern).rgb];
    expect([...plan.palette]).toEqual(campaign);
  });

  it('lays the lines first, then the figure, then the background ring by ring from the face outward', () => {
    for (let i = 1; i < plan.count; i++) expect(plan.phase[i]).toBeGreaterThanOrEqual(plan.phase[i - 1] as number);
    for (let p = 0; p < LAYING_PHASES.length; p++) expect(plan.phase.includes(p)).toBe(true);
    // The rings are centred on the face, which the lines draw: each third of the background lies
    // farther out than the one laid before it.
    const lines = [...plan.phase.keys()].filter((i) => plan.phase[i] === 0);
    const face = {
      x: lines.reduce((sum, i) => sum + (plan.x[i] as number), 0) / lines.length,
      y: lines.reduce((sum, i) => sum + (plan.y[i] as number), 0) / lines.length,
    };
    const background = [...plan.phase.keys()].filter((i) => plan.phase[i] === 2);
    const third = Math.floor(background.length / 3);
    const meanDistance = (part: number[]) =>
      part.reduce((sum, i) => sum + Math.hypot((plan.x[i] as number) - face.x, (plan.y[i] as number) - face.y), 0) /
      part.length;
    const inner = meanDistance(background.slice(0, third));
    const middle = meanDistance(background.slice(third, 2 * third));
    const outer = meanDistance(background.slice(2 * third));
    expect(middle - inner).toBeGreaterThan(TILE_SIZES.background);
    expect(outer - middle).toBeGreaterThan(TILE_SIZES.background);
  });

  it("covers the 4:5's window and the story's with its tesserae, each shown where it is painted", async () => {
    const { post, story } = plan.windows;
    expect(coverage(plan, IN_POST, post, plan.width, plan.height, 0)).toBeGreaterThan(0.995);
    expect(coverage(plan, IN_STORY, story, plan.story.width, plan.story.height, plan.story.offset)).toBeGreaterThan(
      0.995,
    );
    // Where each tessera is centred, the artwork shows its colour in its light (or a joint beside it).
    const artwork = await toRgb(result.jpeg);
    let matching = 0;
    let shown = 0;
    for (let i = 0; i < plan.count; i++) {
      if (((plan.formats[i] as number) & IN_POST) === 0) continue;
      shown++;
      const at = ((plan.y[i] as number) * artwork.width + (plan.x[i] as number)) * 3;
      const colour = (plan.colour[i] as number) * 3;
      const off = [0, 1, 2].map((c) =>
        Math.abs((artwork.data[at + c] as number) - (plan.palette[colour + c] as number)),
      );
      if (Math.max(...off) <= 48) matching++;
    }
    expect(matching / shown).toBeGreaterThan(0.9);
  });
});
