import type { LayingPlan, PlanBox } from '@selfie-mosaic/contract';
import { FORMAT_VIEWS, type LayingFormat, type LayingSchedule, layingSchedule } from './schedule';

type Context = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export interface LayingOptions {
  format: LayingFormat;
  /** When the last tessera has landed, in ms from the start. */
  durationMs: number;
}

/**
 * How a tessera in flight looks, by how far it is on its way: it comes down from a little above the
 * bed, larger and lit, fading in, and settles into its place in its own colour. Colours and opacity
 * go in steps (one fill per colour and step, however many tesserae fly); size and height are exact.
 */
const FLIGHT = {
  /** Steps of colour and opacity. */
  steps: 8,
  /** How much larger than its place it starts. */
  rise: 0.45,
  /** How far above its place it starts, in the picture's pixels. */
  drop: 10,
  /** The share of the flight it takes to become opaque. */
  fadeIn: 0.35,
  /** How much light it catches at the start, as a mix towards white. */
  light: 0.5,
} as const;

/** Antialiased edges reach a pixel beyond a polygon. */
const EDGE = 2;

/**
 * On screen, the laid layer takes the tesserae that have landed in batches this far apart; in
 * between they are drawn, with the same pixels, on the layer of those in flight. A changed canvas
 * costs its whole area on the way to the screen, so the large laid layer changes seldom.
 */
const LAY_EVERY_MS = 120;

/** The settling curve: quick at first, gentle at the end. */
const settle = (p: number) => 1 - (1 - p) ** 3;

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const emptyBounds = (): Bounds => ({ left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });

/**
 * Paints a mosaic being laid, tessera by tessera, from its laying plan and its finished picture: the
 * result screen's reveal and the story clip draw with it. Framework-free.
 *
 * The campaign frame (the picture outside the plan's window for the format) shows from the start, and
 * so does what lies over the mosaic (the story's wordmark plaque); the rest of the window starts as the
 * bare grout bed. Each tessera flies in (its polygon in its palette colour,
 * settling) and, once it has landed, shows its exact pixels of the finished picture; after the last
 * one the picture is drawn whole, so the last frame is the JPEG itself.
 *
 * Two ways to draw, one per instance:
 * - `drawFrame(ctx, ms)`: the whole picture as it is at `ms` (for encoding frames);
 * - `drawLayers(laid, flying, ms)`: onto two stacked canvases of the picture's size that keep their
 *   pixels between frames (for the screen): the tesserae that have landed are added to `laid` now and
 *   then, and `flying` is cleared only where tesserae flew, so a frame never repaints the whole picture.
 * Frames may be asked in increasing order of `ms` only.
 */
export class Laying {
  /** The picture's pixels: ARTWORK's size for the post, STORY_ARTWORK's for the story. */
  readonly width: number;
  readonly height: number;
  /** When the last tessera has landed; frames from then on are exactly the finished picture. */
  readonly durationMs: number;

  private readonly schedule: LayingSchedule;
  private readonly window: PlanBox;
  /** Over the mosaic, shown from the start: no tessera flies over it. */
  private readonly over: PlanBox;
  private readonly offset: number;
  private readonly grout: string;
  /** The distinct fills of tesserae in flight, and which one each palette colour takes at each step. */
  private readonly flightFills: { fills: string[]; byStep: Uint16Array };
  /** How far each tessera's polygon reaches from its centre, by plan index. */
  private readonly reach: Uint8Array;
  /** Tesserae (by place in the schedule) being drawn this frame, per fill. */
  private readonly batches: number[][];
  private readonly usedBatches: number[] = [];
  /** Tesserae (by place in the schedule) that have landed but are not on the laid layer yet. */
  private readonly landed: number[] = [];
  private laidAt = -Infinity;
  /** The first tessera (by place in the schedule) not yet laid. */
  private laidUpTo = 0;
  private finished = false;
  private started = false;
  /** drawFrame's own laid layer. */
  private layer: { canvas: OffscreenCanvas | HTMLCanvasElement; ctx: Context } | null = null;
  private patterns = new WeakMap<Context, CanvasPattern>();
  /** Where the last frame drew tesserae in flight, to clear before the next. */
  private flown: Bounds | null = null;

  constructor(
    private readonly plan: LayingPlan,
    /** That format's finished picture (its decoded JPEG), at the picture's size. */
    private readonly artwork: CanvasImageSource,
    options: LayingOptions,
  ) {
    const view = FORMAT_VIEWS[options.format];
    const { width, height } = view.size(plan);
    this.width = width;
    this.height = height;
    this.durationMs = options.durationMs;
    this.window = view.window(plan);
    this.over = view.over(plan);
    this.offset = view.offset(plan);
    this.schedule = layingSchedule(plan, options.format, options.durationMs);
    const [r, g, b] = plan.grout;
    this.grout = `rgb(${r} ${g} ${b})`;
    this.flightFills = flightFills(plan.palette);
    this.batches = this.flightFills.fills.map(() => []);
    this.reach = new Uint8Array(plan.count);
    for (let t = 0; t < plan.count; t++) {
      let reach = 0;
      for (let v = plan.vertexStart[t] as number; v < (plan.vertexStart[t + 1] as number); v++) {
        reach = Math.max(reach, Math.abs(plan.vertices[2 * v] as number), Math.abs(plan.vertices[2 * v + 1] as number));
      }
      this.reach[t] = reach;
    }
  }

  /** Draws the whole picture as it is at `ms` (from `durationMs` on: exactly the finished artwork) onto ctx. */
  drawFrame(ctx: Context, ms: number): void {
    if (ms >= this.durationMs) {
      ctx.drawImage(this.artwork, 0, 0, this.width, this.height);
      return;
    }
    const layer = this.ownLayer();
    this.layUpTo(layer.ctx, ms);
    ctx.drawImage(layer.canvas, 0, 0);
    this.drawFlying(ctx, ms);
  }

  /**
   * Draws the picture at `ms` onto two stacked layers of the picture's size that keep their pixels
   * from one call to the next: the laid tesserae (and frame) onto `laid`, which must be opaque, the
   * tesserae in flight onto `flying` above it, which must start transparent.
   */
  drawLayers(laid: Context, flying: Context, ms: number): void {
    if (!this.started) {
      this.started = true;
      this.drawBed(laid);
    }
    if (this.flown) {
      clearBounds(flying, this.flown);
      this.flown = null;
    }
    if (ms >= this.durationMs) {
      if (!this.finished) laid.drawImage(this.artwork, 0, 0, this.width, this.height);
      this.finished = true;
      return;
    }
    if (ms - this.laidAt >= LAY_EVERY_MS) {
      this.layUpTo(laid, ms);
      this.laidAt = ms;
    }
    this.flown = this.drawFlying(flying, ms);
  }

  /** How many of the picture's tesserae have landed by the last frame drawn. */
  get laidCount(): number {
    return this.finished ? this.schedule.order.length : this.laidUpTo;
  }

  /** How many tesserae the picture has. */
  get tesseraCount(): number {
    return this.schedule.order.length;
  }

  /** The frame (and what lies over the mosaic) as the finished picture shows it, the window as the bare bed. */
  private drawBed(ctx: Context): void {
    ctx.drawImage(this.artwork, 0, 0, this.width, this.height);
    const { left, top, right, bottom } = this.window;
    ctx.fillStyle = this.grout;
    ctx.fillRect(left, top, right - left, bottom - top);
    if (isEmpty(this.over)) return;
    const { left: x, top: y, right: r, bottom: b } = this.over;
    ctx.drawImage(this.artwork, x, y, r - x, b - y, x, y, r - x, b - y);
  }

  private ownLayer(): { canvas: OffscreenCanvas | HTMLCanvasElement; ctx: Context } {
    if (this.layer) return this.layer;
    const canvas =
      typeof OffscreenCanvas === 'undefined'
        ? Object.assign(document.createElement('canvas'), { width: this.width, height: this.height })
        : new OffscreenCanvas(this.width, this.height);
    const ctx = canvas.getContext('2d') as Context | null;
    if (!ctx) throw new Error('no 2D canvas to lay the mosaic on');
    this.drawBed(ctx);
    this.layer = { canvas, ctx };
    return this.layer;
  }

  /** Lays every tessera that has landed by `ms`: their polygons, as one path, filled with the finished picture. */
  private layUpTo(ctx: Context, ms: number): void {
    const { order, land } = this.schedule;
    if (this.laidUpTo >= order.length || (land[this.laidUpTo] as number) > ms) return;
    ctx.beginPath();
    while (this.laidUpTo < order.length && (land[this.laidUpTo] as number) <= ms) {
      this.tracePolygon(ctx, order[this.laidUpTo] as number, 1, 0);
      this.laidUpTo++;
    }
    ctx.fillStyle = this.pattern(ctx);
    ctx.fill();
  }

  private pattern(ctx: Context): CanvasPattern {
    let pattern = this.patterns.get(ctx);
    if (!pattern) {
      const made = ctx.createPattern(this.artwork, 'no-repeat');
      if (!made) throw new Error('the artwork cannot be painted from');
      pattern = made;
      this.patterns.set(ctx, pattern);
    }
    return pattern;
  }

  /**
   * Draws the tesserae in flight at `ms`, and those landed but not yet laid, clipped to the window;
   * returns where it drew.
   */
  private drawFlying(ctx: Context, ms: number): Bounds | null {
    const { order, start, land, longestFlightMs } = this.schedule;
    const { steps } = FLIGHT;
    for (let i = this.laidUpTo; i < order.length && (land[i] as number) - longestFlightMs <= ms; i++) {
      const from = start[i] as number;
      if (from > ms) continue;
      if ((land[i] as number) <= ms) {
        this.landed.push(i);
        continue;
      }
      const p = (ms - from) / ((land[i] as number) - from);
      const step =
        (this.plan.colour[order[i] as number] as number) * steps + Math.min(steps - 1, Math.floor(p * steps));
      const fill = this.flightFills.byStep[step] as number;
      const batch = this.batches[fill] as number[];
      if (batch.length === 0) this.usedBatches.push(fill);
      batch.push(i);
    }
    if (this.usedBatches.length === 0 && this.landed.length === 0) return null;
    const bounds = emptyBounds();
    const { left, top, right, bottom } = this.window;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, right - left, bottom - top);
    if (isEmpty(this.over)) ctx.clip();
    else {
      const { left: x, top: y, right: r, bottom: b } = this.over;
      ctx.rect(x, y, r - x, b - y);
      ctx.clip('evenodd');
    }
    if (this.landed.length > 0) {
      ctx.beginPath();
      for (const i of this.landed) this.traceFlying(ctx, i, ms, bounds);
      ctx.fillStyle = this.pattern(ctx);
      ctx.fill();
      this.landed.length = 0;
    }
    for (const fill of this.usedBatches) {
      const batch = this.batches[fill] as number[];
      ctx.beginPath();
      for (const i of batch) this.traceFlying(ctx, i, ms, bounds);
      ctx.fillStyle = this.flightFills.fills[fill] as string;
      ctx.fill();
      batch.length = 0;
    }
    this.usedBatches.length = 0;
    ctx.restore();
    return bounds;
  }

  /** Adds the polygon of the i-th tessera to land to the path, where it is at `ms`, and widens `bounds` to it. */
  private traceFlying(ctx: Context, i: number, ms: number, bounds: Bounds): void {
    const { start, land, order } = this.schedule;
    const from = start[i] as number;
    const rest = 1 - settle(Math.min(1, (ms - from) / ((land[i] as number) - from)));
    const tessera = order[i] as number;
    const scale = 1 + FLIGHT.rise * rest;
    const lift = FLIGHT.drop * rest;
    this.tracePolygon(ctx, tessera, scale, lift);
    const reach = (this.reach[tessera] as number) * scale + EDGE;
    const x = this.plan.x[tessera] as number;
    const y = (this.plan.y[tessera] as number) + this.offset - lift;
    bounds.left = Math.min(bounds.left, x - reach);
    bounds.top = Math.min(bounds.top, y - reach);
    bounds.right = Math.max(bounds.right, x + reach);
    bounds.bottom = Math.max(bounds.bottom, y + reach);
  }

  /** Adds tessera t's polygon to the path, `scale` times its size about its centre and `lift` pixels up. */
  private tracePolygon(ctx: Context, t: number, scale: number, lift: number): void {
    const { plan } = this;
    const x = plan.x[t] as number;
    const y = (plan.y[t] as number) + this.offset - lift;
    const from = plan.vertexStart[t] as number;
    const to = plan.vertexStart[t + 1] as number;
    ctx.moveTo(x + (plan.vertices[2 * from] as number) * scale, y + (plan.vertices[2 * from + 1] as number) * scale);
    for (let v = from + 1; v < to; v++) {
      ctx.lineTo(x + (plan.vertices[2 * v] as number) * scale, y + (plan.vertices[2 * v + 1] as number) * scale);
    }
    ctx.closePath();
  }
}

/**
 * Every palette colour at every step of its flight: lit and faint at first, then opaque in its own
 * colour. The last steps of a colour often look the same: they share one fill.
 */
function flightFills(palette: Uint8Array): { fills: string[]; byStep: Uint16Array } {
  const { steps, fadeIn, light } = FLIGHT;
  const fills: string[] = [];
  const index = new Map<string, number>();
  const byStep = new Uint16Array((palette.length / 3) * steps);
  for (let c = 0; c + 2 < palette.length; c += 3) {
    for (let step = 0; step < steps; step++) {
      const p = (step + 0.5) / steps;
      const lit = light * (1 - settle(p)) ** 2;
      const alpha = Math.min(1, p / fadeIn);
      const [r, g, b] = [palette[c], palette[c + 1], palette[c + 2]].map((v) =>
        Math.round((v as number) + (255 - (v as number)) * lit),
      );
      const fill = `rgb(${r} ${g} ${b} / ${alpha.toFixed(2)})`;
      if (!index.has(fill)) index.set(fill, fills.push(fill) - 1);
      byStep[(c / 3) * steps + step] = index.get(fill) as number;
    }
  }
  return { fills, byStep };
}

const isEmpty = ({ left, top, right, bottom }: PlanBox) => right <= left || bottom <= top;

function clearBounds(ctx: Context, { left, top, right, bottom }: Bounds): void {
  const x = Math.floor(left);
  const y = Math.floor(top);
  ctx.clearRect(x, y, Math.ceil(right) - x, Math.ceil(bottom) - y);
}
