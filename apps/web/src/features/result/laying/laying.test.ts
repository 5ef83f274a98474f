import { describe, expect, it } from 'vitest';
import { syntheticPlan } from '../../../test/laying-plan';
import { Laying } from './laying';

type Op =
  | { op: 'drawImage'; source: unknown; args: number[] }
  | { op: 'fill'; style: unknown; polygons: number }
  | { op: 'fillRect' | 'clearRect'; style?: unknown; args: number[] };

/** A 2D context that records what is drawn: polygons per fill, images and rectangles. */
function recorder() {
  const ops: Op[] = [];
  const clips: string[] = [];
  let polygons = 0;
  const pattern = { pattern: true };
  const ctx = {
    fillStyle: '' as unknown,
    drawImage: (source: unknown, ...args: number[]) => ops.push({ op: 'drawImage', source, args }),
    fillRect: (...args: number[]) => ops.push({ op: 'fillRect', style: ctx.fillStyle, args }),
    clearRect: (...args: number[]) => ops.push({ op: 'clearRect', args }),
    beginPath: () => {
      polygons = 0;
    },
    moveTo: () => {
      polygons++;
    },
    lineTo: () => undefined,
    closePath: () => undefined,
    rect: () => undefined,
    clip: (rule = 'nonzero') => {
      clips.push(rule);
    },
    save: () => undefined,
    restore: () => undefined,
    fill: () => ops.push({ op: 'fill', style: ctx.fillStyle, polygons }),
    createPattern: () => pattern,
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, ops, pattern, clips };
}

const ARTWORK = { artwork: true } as unknown as CanvasImageSource;
const DURATION = 5000;

function layers(format: 'post' | 'story' = 'post') {
  const laying = new Laying(syntheticPlan(), ARTWORK, { format, durationMs: DURATION });
  return { laying, laid: recorder(), flying: recorder() };
}

describe('Laying', () => {
  it('is the size of its picture', () => {
    const post = new Laying(syntheticPlan(), ARTWORK, { format: 'post', durationMs: DURATION });
    const story = new Laying(syntheticPlan(), ARTWORK, { format: 'story', durationMs: DURATION });
    expect([post.width, post.height, post.durationMs]).toEqual([1080, 1350, DURATION]);
    expect([story.width, story.height]).toEqual([1080, 1920]);
  });

  it('starts from the frame around the bare grout bed', () => {
    const { laying, laid, flying } = layers();
    laying.drawLayers(laid.ctx, flying.ctx, 0);
    expect(laid.ops.slice(0, 2)).toEqual([
      { op: 'drawImage', source: ARTWORK, args: [0, 0, 1080, 1350] },
      { op: 'fillRect', style: 'rgb(236 228 214)', args: [28, 28, 1024, 1226] },
    ]);
    expect(laying.laidCount).toBe(0);
  });

  it('shows the story’s wordmark plaque from the start, and flies no tessera over it', () => {
    const { laying, laid, flying } = layers('story');
    laying.drawLayers(laid.ctx, flying.ctx, 0.5 * DURATION);
    expect(laid.ops.slice(0, 3)).toEqual([
      { op: 'drawImage', source: ARTWORK, args: [0, 0, 1080, 1920] },
      { op: 'fillRect', style: 'rgb(236 228 214)', args: [28, 28, 1024, 1864] },
      { op: 'drawImage', source: ARTWORK, args: [340, 1700, 400, 90, 340, 1700, 400, 90] },
    ]);
    expect(flying.clips).toEqual(['evenodd']);
  });

  it('lays every tessera by the end, each landed one filled from the finished picture, in batches', () => {
    const { laying, laid, flying } = layers();
    let frames = 0;
    for (let ms = 0; ms < DURATION; ms += 1000 / 60) {
      laying.drawLayers(laid.ctx, flying.ctx, ms);
      frames++;
    }
    const fills = laid.ops.filter((op) => op.op === 'fill');
    expect(fills.every((op) => op.style === laid.pattern)).toBe(true);
    // Landed tesserae go in one fill per frame at most.
    expect(fills.length).toBeLessThanOrEqual(frames);
    const laidSoFar = fills.reduce((sum, op) => sum + op.polygons, 0);
    expect(laidSoFar).toBe(laying.laidCount);
    expect(laying.laidCount).toBeLessThan(laying.tesseraCount);
    expect(laying.laidCount).toBeGreaterThan(0.95 * laying.tesseraCount);

    laying.drawLayers(laid.ctx, flying.ctx, DURATION);
    expect(laying.laidCount).toBe(laying.tesseraCount);
    // The last frame is the finished picture itself, and nothing is left in flight.
    expect(laid.ops.at(-1)).toEqual({ op: 'drawImage', source: ARTWORK, args: [0, 0, 1080, 1350] });
    expect(flying.ops.at(-1)?.op).toBe('clearRect');
    const after = [laid.ops.length, flying.ops.length];
    laying.drawLayers(laid.ctx, flying.ctx, DURATION + 500);
    expect([laid.ops.length, flying.ops.length]).toEqual(after);
  });

  it('adds landed tesserae to the laid layer now and then, drawing them meanwhile with the same pixels above it', () => {
    const { laying, laid, flying } = layers();
    const frames = Array.from({ length: 60 }, (_, i) => 0.5 * DURATION + (i * 1000) / 60);
    for (const ms of frames) laying.drawLayers(laid.ctx, flying.ctx, ms);
    const laidFills = laid.ops.filter((op) => op.op === 'fill');
    // A batch now and then, not one a frame: a second of frames gives a handful.
    expect(laidFills.length).toBeGreaterThanOrEqual(7);
    expect(laidFills.length).toBeLessThanOrEqual(10);
    const waiting = flying.ops.filter((op) => op.op === 'fill' && op.style === flying.pattern);
    expect(waiting.length).toBeGreaterThan(30);
  });

  it('draws tesserae in flight in one fill per colour and step, and clears only where they flew', () => {
    const { laying, laid, flying } = layers();
    laying.drawLayers(laid.ctx, flying.ctx, 0.8 * DURATION);
    const fills = flying.ops.filter((op) => op.op === 'fill');
    expect(fills.length).toBeGreaterThan(1);
    const inFlight = fills.reduce((sum, op) => sum + op.polygons, 0);
    expect(inFlight).toBeGreaterThan(fills.length);
    expect(new Set(fills.map((op) => op.style)).size).toBe(fills.length);
    expect(fills.every((op) => /^rgb\(\d+ \d+ \d+ \/ [\d.]+\)$/.test(String(op.style)))).toBe(true);
    flying.ops.length = 0;
    laying.drawLayers(laid.ctx, flying.ctx, 0.8 * DURATION + 16);
    const [clear] = flying.ops;
    expect(clear?.op).toBe('clearRect');
    const [, , w = 0, h = 0] = clear && 'args' in clear ? clear.args : [];
    expect(w * h).toBeLessThan(1080 * 1350);
  });

  it('draws whole frames: the laid picture, tesserae in flight over it, and from the end the artwork alone', () => {
    const laying = new Laying(syntheticPlan(), ARTWORK, { format: 'story', durationMs: DURATION });
    const own = recorder();
    const layer = { getContext: () => own.ctx, width: 0, height: 0 };
    const created: unknown[] = [];
    const original = globalThis.OffscreenCanvas;
    globalThis.OffscreenCanvas = function (this: unknown, width: number, height: number) {
      created.push([width, height]);
      return Object.assign(layer, { width, height });
    } as unknown as typeof OffscreenCanvas;
    try {
      const frame = recorder();
      laying.drawFrame(frame.ctx, 2000);
      expect(created).toEqual([[1080, 1920]]);
      expect(frame.ops[0]).toEqual({ op: 'drawImage', source: layer, args: [0, 0] });
      expect(frame.ops.some((op) => op.op === 'fill')).toBe(true);
      expect(own.ops[0]).toEqual({ op: 'drawImage', source: ARTWORK, args: [0, 0, 1080, 1920] });

      const last = recorder();
      laying.drawFrame(last.ctx, DURATION);
      expect(last.ops).toEqual([{ op: 'drawImage', source: ARTWORK, args: [0, 0, 1080, 1920] }]);
    } finally {
      globalThis.OffscreenCanvas = original;
    }
  });
});
