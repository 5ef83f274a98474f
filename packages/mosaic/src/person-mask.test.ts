import { beforeAll, describe, expect, it } from 'vitest';
import type { Framing } from './framing.js';
import { loadModels } from './index.js';
import type { Landmarks } from './landmarks.js';
import { LAYOUT } from './layout.js';
import { faceOval, personProbability } from './person-mask.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { NO_TILE } from './superpixels.js';
import { framedInputs } from './testing/framed-inputs.js';
import { portrait } from './testing/photos.js';
import { personProbability as reference } from './testing/reference/person-mask.js';
import { differingElements } from './testing/same-bits.js';

const HALF = { width: LAYOUT.width / 2, height: LAYOUT.height / 2 };

/** A framing whose photo (2000 px square) reaches far past every canvas edge. */
const FILLING: Framing = {
  cos: 1,
  sin: 0,
  scale: 1,
  source: { x: 1000, y: 1000 },
  target: { x: LAYOUT.width / 2, y: LAYOUT.height / 2 },
};

/** A rectangle as a closed outline of corner points, in artwork pixels. */
function box(x0: number, y0: number, x1: number, y1: number): Float32Array {
  return Float32Array.of(x0, y0, x1, y0, x1, y1, x0, y1);
}

/** Landmarks where only the face outline matters. */
function faceAt(outline: Float32Array): Landmarks {
  const none = new Float32Array(0);
  return {
    outline,
    rightEye: none,
    leftEye: none,
    rightBrow: none,
    leftBrow: none,
    lips: none,
    mouth: none,
    nose: none,
    cheeks: none,
  };
}

const LILAC = [176, 160, 214] as const;
const SKIN = [196, 140, 110] as const;
const BLACK = [24, 22, 26] as const;

/**
 * A lilac room; a visitor in black with a skin-coloured face and a thin lilac stripe across the top;
 * beside the visitor a pocket of the room (between an arm and the body, say) that the model takes
 * for the person.
 */
function scene() {
  const { width, height } = HALF;
  const data = new Uint8Array(width * height * 3);
  const mask = new Uint8Array(width * height);
  const visitor = { x0: 140, y0: 120, x1: 400, y1: height };
  const pocket = { x0: 400, y0: 300, x1: 450, y1: height };
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const inVisitor = x >= visitor.x0 && x < visitor.x1 && y >= visitor.y0;
      const inPocket = x >= pocket.x0 && x < pocket.x1 && y >= pocket.y0;
      const stripe = inVisitor && y >= 400 && y < 404;
      const face = inVisitor && y < 260;
      const colour = !inVisitor || stripe ? LILAC : face ? SKIN : BLACK;
      data.set(colour, i * 3);
      mask[i] = inVisitor || inPocket ? 255 : 0;
    }
  }
  return { half: { data, width, height }, mask, visitor, pocket };
}

describe('personProbability', () => {
  it('gives a stretch of wall the model took for the person back to the room, and keeps the visitor', () => {
    const { half, mask, pocket } = scene();
    const source = { framing: FILLING, from: { width: 2000, height: 2000 }, half, landmarks: faceAt(box(0, 0, 1, 1)) };
    const person = personProbability(source, { mask, width: HALF.width, height: HALF.height });
    const at = (x: number, y: number) => person[y * HALF.width + x] as number;
    expect(at(Math.round((pocket.x0 + pocket.x1) / 2), 500)).toBeLessThan(0.2);
    // Next to the body, too: no strip of wall is left along it.
    expect(at(pocket.x0 + 6, 500)).toBeLessThan(0.5);
    expect(at(270, 200)).toBeGreaterThan(0.9);
    expect(at(270, 500)).toBeGreaterThan(0.9);
    // A thin stripe of the room's colour on the clothes stays with the visitor.
    expect(at(270, 401)).toBeGreaterThan(0.8);
    expect(at(60, 60)).toBeLessThan(0.1);
  });

  it('counts the face as the visitor even where the model missed it, and nothing beside the face', () => {
    const { half } = scene();
    const mask = new Uint8Array(HALF.width * HALF.height);
    const oval = box(380, 260, 720, 500);
    const source = { framing: FILLING, from: { width: 2000, height: 2000 }, half, landmarks: faceAt(oval) };
    const person = personProbability(source, { mask, width: HALF.width, height: HALF.height });
    const at = (x: number, y: number) => person[Math.round(y / 2) * HALF.width + Math.round(x / 2)] as number;
    expect(at(550, 380)).toBe(1);
    expect(at(200, 380)).toBeLessThan(0.1);
    expect(at(550, 530)).toBeLessThan(0.1);
  });

  it('paints nothing of the visitor beyond the photo', () => {
    const { half, mask } = scene();
    // The photo is 600 px wide and tall with the canvas centre at its middle: the canvas's outer
    // rows and columns lie beyond it.
    const framing = { ...FILLING, source: { x: 300, y: 300 } };
    const source = { framing, from: { width: 600, height: 600 }, half, landmarks: faceAt(box(480, 300, 600, 420)) };
    const person = personProbability(source, { mask, width: HALF.width, height: HALF.height });
    expect(person[HALF.width * 660 + 270]).toBe(0);
  });
});

describe('personProbability in WebAssembly', () => {
  it.each(['sample4', 'sample6', 'close'])(
    'writes the same bits as the JavaScript it replaced, on %s',
    async (name) => {
      const { framed, person } = await framedInputs(name);
      const got = personProbability(framed, person).slice();
      const want = reference(framed, person);
      expect(differingElements(got, want)).toBe(0);
      // Not vacuous: the visitor and the room are both there.
      expect(got.some((p) => p > 0.9)).toBe(true);
      expect(got.some((p) => p < 0.1)).toBe(true);
    },
    60_000,
  );

  it('writes the same bits on a synthetic scene, filling the canvas or cut off by the photo', () => {
    const { half, mask } = scene();
    const model = { mask, width: HALF.width, height: HALF.height };
    for (const [framing, side] of [
      [FILLING, 2000],
      [{ ...FILLING, source: { x: 300, y: 300 } }, 600],
    ] as const) {
      const source = { framing, from: { width: side, height: side }, half, landmarks: faceAt(box(380, 260, 720, 500)) };
      const got = personProbability(source, model).slice();
      expect(differingElements(got, reference(source, model))).toBe(0);
    }
  });

  it('writes the same bits on odd-sized images, whose last half-resolution row and column stand alone', () => {
    for (const [width, height] of [
      [33, 41],
      [34, 41],
      [35, 42],
    ] as const) {
      const data = new Uint8Array(width * height * 3).map((_, i) => (i * 37 + (i >> 5) * 11) & 255);
      const mask = new Uint8Array(64 * 64).map((_, i) => (i % 64 > 20 && i % 64 < 44 ? 240 : 10));
      const source = {
        framing: FILLING,
        from: { width: 2000, height: 2000 },
        half: { data, width, height },
        landmarks: faceAt(box(20, 20, 40, 50)),
      };
      const model = { mask, width: 64, height: 64 };
      const got = personProbability(source, model).slice();
      expect(got).toHaveLength(width * height);
      expect(differingElements(got, reference(source, model))).toBe(0);
    }
  });
});

describe('faceOval', () => {
  it('fills the polygon the outline draws, on a grid of 2-pixel cells', () => {
    const inside = faceOval(Float32Array.of(100, 100, 300, 100, 200, 300), 200, 200, 2);
    expect(inside[75 * 200 + 100]).toBe(1);
    expect(inside[60 * 200 + 100]).toBe(1);
    // Beside the chin, where an ellipse around the outline would reach, the triangle does not.
    expect(inside[140 * 200 + 65]).toBe(0);
    expect(inside[40 * 200 + 100]).toBe(0);
  });
});

/**
 * Places on the test photos, in artwork pixels, that a viewer can tell apart at a glance: the
 * photo's wall or door (to be painted as pattern), and hair or clothing (to stay the visitor).
 */
const WALLS: Record<string, [number, number, number, number][]> = {
  // The lilac wall between the raised arm and the neck.
  sample4: [[385, 930, 505, 1100]],
  // The white wall above the raised arm, below the frame's top border.
  sample2: [[380, 28, 470, 60]],
  // The wooden door beside the hair; to 170 px, as the hair's edge tiles reach past it since the
  // face is framed 1.6 % larger (FaceMesh reads it once, cut level).
  sample6: [[120, 200, 170, 550]],
};
const KEPT: Record<string, [number, number, number, number][]> = {
  // Dark hair on the crown and the ponytail, against dark wooden slats.
  sample5: [
    [350, 90, 575, 185],
    [225, 625, 300, 800],
  ],
  // The black-and-white striped top against white blinds.
  sample6: [[100, 1062, 588, 1237]],
  // The dark uniform against a dark room.
  sample1: [[661, 882, 992, 1102]],
  // Hair beside the face against the lilac wall.
  sample4: [[800, 250, 950, 500]],
};

/** Share of a rectangle's pixels whose tile is painted as the visitor. */
function portraitShare(result: RenderDetails, [x0, y0, x1, y1]: [number, number, number, number]): number {
  let person = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const tile = result.labels[y * LAYOUT.width + x] as number;
      // Every place marked lies inside the frame's window, where every pixel has a tile.
      expect(tile).not.toBe(NO_TILE);
      if ((result.personByTile[tile] as number) >= 0.5) person++;
    }
  }
  return person / ((x1 - x0) * (y1 - y0));
}

describe.each([...new Set([...Object.keys(WALLS), ...Object.keys(KEPT)])])('the visitor in %s', (name) => {
  let result: RenderDetails;
  beforeAll(async () => {
    await loadModels();
    result = await renderDetailed(await portrait(name));
  });

  it.each(WALLS[name] ?? [])('paints the wall at %i,%i–%i,%i as pattern, not portrait', (...rect) => {
    expect(portraitShare(result, rect)).toBeLessThan(0.1);
  });

  it.each(KEPT[name] ?? [])('keeps the hair and clothes at %i,%i–%i,%i with the visitor', (...rect) => {
    expect(portraitShare(result, rect)).toBeGreaterThan(0.9);
  });
});
