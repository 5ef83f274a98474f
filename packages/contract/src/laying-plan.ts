/*
 * The laying plan: every tessera of an artwork in the order a mosaicist lays it, with its polygon
 * and colour, so the visitor's browser can show the portrait being laid (the result screen's reveal
 * and the story clip) without the server making a frame. The engine writes it with the artwork and
 * the server keeps it under the artwork's token, gzip-compressed, served and deleted with it. It
 * holds nothing of the photo beyond what the artwork itself shows: shapes and palette colours.
 *
 * The bytes, little-endian, one column per field so that compression finds the repeats:
 *
 *   "SMLP"  u8 version  u8 0
 *   u16 width, height                 the 4:5 canvas
 *   u16 story width, height, offset   the 9:16 canvas; its rows are the 4:5's shifted down by offset
 *   u16[4] post window, u16[4] story window   left, top, right, bottom (exclusive): where tesserae show
 *   u16[4] story plaque               the box of the story's wordmark plaque, laid over the mosaic last
 *   u8[3] grout                       the bed the tesserae are set in
 *   u8 palette size n, u8[3n] palette
 *   u32 count
 *   u8[count]  phase | formats << 2  phase: LAYING_PHASES index; formats: bit 0 the 4:5, bit 1 the story
 *   u8[count]  palette index
 *   i16[count] centre x, i16[count] centre y  in the 4:5's pixels (story tesserae may lie above or below it)
 *   u8[count]  vertex count
 *   i8[2v]     the vertices as (dx, dy) from the centre, a convex polygon that covers the tessera
 */

/** The plan's layout version: a reader refuses any other. */
export const LAYING_PLAN_VERSION = 1;

/** The most a plan may take as served (gzip): about a photo's worth of a page, checked by the engine's tests. */
export const LAYING_PLAN_MAX_BYTES = 150 * 1024;

/**
 * The order the tesserae are laid in: the rows outlining the face, its features and the figure;
 * then the rows filling the figure along its contours; then the background along the pattern's
 * curves. Within each phase the plan keeps the laying order.
 */
export const LAYING_PHASES = ['lines', 'figure', 'background'] as const;
export type LayingPhase = (typeof LAYING_PHASES)[number];

/** Bits of a tessera's `formats`. */
export const IN_POST = 1;
export const IN_STORY = 2;

export interface PlanBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface LayingPlan {
  width: number;
  height: number;
  story: { width: number; height: number; offset: number };
  /**
   * Where tesserae show in each picture (outside: the campaign frame), and the box of the story's
   * wordmark plaque, which lies over the mosaic (an empty box where there is none).
   */
  windows: { post: PlanBox; story: PlanBox; plaque: PlanBox };
  grout: readonly [number, number, number];
  /** RGB triplets. */
  palette: Uint8Array;
  count: number;
  /** Index into LAYING_PHASES per tessera, in laying order. */
  phase: Uint8Array;
  /** IN_POST | IN_STORY per tessera: which pictures show it. */
  formats: Uint8Array;
  /** Palette index per tessera. */
  colour: Uint8Array;
  /** Centre per tessera, 4:5 pixels. */
  x: Int16Array;
  y: Int16Array;
  /** Tessera t's vertices are pairs vertexStart[t] … vertexStart[t + 1] - 1 of `vertices`. */
  vertexStart: Uint32Array;
  /** (dx, dy) pairs from the centre. */
  vertices: Int8Array;
}

const MAGIC = [0x53, 0x4d, 0x4c, 0x50];
const HEADER = 4 + 2 + 2 * 2 + 3 * 2 + 12 * 2 + 3 + 1;

export class LayingPlanError extends Error {
  override name = 'LayingPlanError';
}

export function encodeLayingPlan(plan: LayingPlan): Uint8Array {
  const { count } = plan;
  const paletteSize = plan.palette.length / 3;
  if (!Number.isInteger(paletteSize) || paletteSize > 255)
    throw new LayingPlanError('the palette must be 0–255 colours');
  if (plan.vertexStart.length !== count + 1) throw new LayingPlanError('vertexStart must hold count + 1 offsets');
  const pairs = plan.vertexStart[count] as number;
  const size = HEADER + paletteSize * 3 + 4 + count * 7 + pairs * 2;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const u8 = (v: number) => view.setUint8(at++, v);
  const u16 = (v: number) => {
    view.setUint16(at, v, true);
    at += 2;
  };
  for (const m of MAGIC) u8(m);
  u8(LAYING_PLAN_VERSION);
  u8(0);
  u16(plan.width);
  u16(plan.height);
  u16(plan.story.width);
  u16(plan.story.height);
  u16(plan.story.offset);
  const { post, story, plaque } = plan.windows;
  for (const box of [post, story, plaque]) for (const side of boxSides(box)) u16(side);
  for (const c of plan.grout) u8(c);
  u8(paletteSize);
  bytes.set(plan.palette, at);
  at += plan.palette.length;
  view.setUint32(at, count, true);
  at += 4;
  for (let t = 0; t < count; t++) u8((plan.phase[t] as number) | ((plan.formats[t] as number) << 2));
  bytes.set(plan.colour.subarray(0, count), at);
  at += count;
  for (const column of [plan.x, plan.y])
    for (let t = 0; t < count; t++) {
      view.setInt16(at, column[t] as number, true);
      at += 2;
    }
  for (let t = 0; t < count; t++) {
    const n = (plan.vertexStart[t + 1] as number) - (plan.vertexStart[t] as number);
    if (n < 3 || n > 255) throw new LayingPlanError(`tessera ${t} has ${n} vertices`);
    u8(n);
  }
  bytes.set(new Uint8Array(plan.vertices.buffer, plan.vertices.byteOffset, pairs * 2), at);
  return bytes;
}

/** Reads a plan, or throws a LayingPlanError saying what is wrong with it. */
export function decodeLayingPlan(bytes: Uint8Array): LayingPlan {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.byteLength) throw new LayingPlanError('the laying plan is cut short');
  };
  const u8 = () => {
    need(1);
    return view.getUint8(at++);
  };
  const u16 = () => {
    need(2);
    const v = view.getUint16(at, true);
    at += 2;
    return v;
  };
  for (const m of MAGIC) if (u8() !== m) throw new LayingPlanError('not a laying plan');
  const version = u8();
  if (version !== LAYING_PLAN_VERSION) throw new LayingPlanError(`laying plan version ${version} is not supported`);
  u8();
  const width = u16();
  const height = u16();
  const story = { width: u16(), height: u16(), offset: u16() };
  const box = (): PlanBox => ({ left: u16(), top: u16(), right: u16(), bottom: u16() });
  const windows = { post: box(), story: box(), plaque: box() };
  const grout = [u8(), u8(), u8()] as const;
  const paletteSize = u8();
  need(paletteSize * 3);
  const palette = bytes.slice(at, at + paletteSize * 3);
  at += paletteSize * 3;
  need(4);
  const count = view.getUint32(at, true);
  at += 4;
  need(count * 7);
  const phase = new Uint8Array(count);
  const formats = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    const packed = bytes[at++] as number;
    phase[t] = packed & 3;
    formats[t] = packed >> 2;
    if ((phase[t] as number) >= LAYING_PHASES.length) throw new LayingPlanError(`tessera ${t} has no phase`);
  }
  const colour = bytes.slice(at, at + count);
  at += count;
  for (let t = 0; t < count; t++)
    if ((colour[t] as number) >= paletteSize) throw new LayingPlanError(`tessera ${t} has no palette colour`);
  const x = new Int16Array(count);
  const y = new Int16Array(count);
  for (const column of [x, y])
    for (let t = 0; t < count; t++) {
      column[t] = view.getInt16(at, true);
      at += 2;
    }
  const vertexStart = new Uint32Array(count + 1);
  for (let t = 0; t < count; t++) {
    const n = bytes[at++] as number;
    if (n < 3) throw new LayingPlanError(`tessera ${t} has ${n} vertices`);
    vertexStart[t + 1] = (vertexStart[t] as number) + n;
  }
  const pairs = vertexStart[count] as number;
  need(pairs * 2);
  const vertices = new Int8Array(bytes.slice(at, at + pairs * 2).buffer);
  at += pairs * 2;
  if (at !== bytes.byteLength) throw new LayingPlanError('the laying plan has bytes after its end');
  return { width, height, story, windows, grout, palette, count, phase, formats, colour, x, y, vertexStart, vertices };
}

function boxSides({ left, top, right, bottom }: PlanBox): number[] {
  return [left, top, right, bottom];
}
