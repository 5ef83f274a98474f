import { nearestColour, type Palette, parseHex } from './colour.js';
import type { Point, Window } from './geometry.js';
import { LAYOUT } from './layout.js';
import { patternIndex } from './pattern.js';
import { addressOf, scratch, updateThrough } from './scratch.js';
import type { Tiles } from './superpixels.js';
import { wasmFunction } from './wasm.js';

export interface PaintStyle {
  portrait: Palette;
  pattern: Palette;
  grout: string;
  /** Pattern index of the row that outlines the visitor. */
  outline: number;
}

/** Tiles at least this wide (artwork pixels) get two-pixel joints. */
const WIDE_JOINT = 20;
/** Strength of the light falling across each tile from the top left. */
const LIGHT = 0.05;
/** Spread of each tile's own brightness, like hand-cut glass or stone. */
const JITTER = 0.04;
/**
 * Each tessera's edges are ground a little: the pixels along its sides facing the light (top
 * left) are lighter, those facing away darker. Stone is ground more softly than glass.
 */
const BEVEL = { glass: 0.04, stone: 0.06 };
/**
 * Glass smalti catch the light in a soft spot towards the light; the brightest (the eyes' and lips'
 * highlights, jewellery) catch it more. Stone is matte.
 */
const SHEEN = { glass: 0.04, bright: 0.08 };
/** CIELAB lightness above which a smalto counts as bright. */
const BRIGHT = 68;
/** Where the sheen sits, in half-sizes from the tile's centre, and its radius². */
export const SHEEN_X = -0.3;
export const SHEEN_Y = -0.38;
export const SHEEN_R2 = 0.3;
/** A tile's light stays within these bounds, so a large tile never runs into dark or bright. */
export const LIGHT_RANGE = { glass: [0.76, 1.24], stone: [0.82, 1.18] } as const;
/**
 * Joints inside the portrait are the tile's own colour in shadow, like tinted grout: a light grout
 * line over every small tile would wash the face out (and cost it its likeness), while a shadow
 * line shows the rows the tesserae are laid in.
 */
const PORTRAIT_JOINT_SHADE = { fine: 0.86, coarse: 0.72 };
/** Tiles below this size (artwork pixels) are the face's fine work. */
const FINE = 15;
/**
 * Lightness counts three times as much as hue when matching a tile to the palette: a face is read
 * from its light and shade, so a slightly off hue costs far less likeness than a wrong value.
 */
const LIGHTNESS_WEIGHT = 3;

/** How each tile is painted: its palette colour, its light, and the colour of its joints. */
export interface TileLook {
  count: number;
  /** Palette index of each tile (in the portrait palette for the visitor's, else the pattern's). */
  colours: Uint8Array;
  personTiles: number;
  rgb: Float32Array;
  joint: Float32Array;
  /** Light across a tile is linear in x and y: light = base + slopeX·x + slopeY·y ... */
  base: Float32Array;
  slopeX: Float32Array;
  slopeY: Float32Array;
  /** ... plus its bevel and sheen, in the tile's own frame: centre, row direction, 1 / half-size. */
  cx: Float32Array;
  cy: Float32Array;
  cos: Float32Array;
  sin: Float32Array;
  inverseHalf: Float32Array;
  bevel: Float32Array;
  sheen: Float32Array;
  /** 1 for glass (the portrait), 0 for stone (the background). */
  glass: Uint8Array;
  /** 1 where the tile is wide enough for two-pixel joints. */
  wide: Uint8Array;
}

/**
 * Paints every tile in one palette colour (nearest in CIELAB to the photo under it, or the
 * campaign pattern for the background) with a soft light across it, and draws the grout joints.
 * Returns the palette index per tile too, so tests can check each tile is one palette colour.
 * Only pixels inside `window` are painted: the opaque frame covers the rest (14 % of the artwork).
 */
export function paintTiles(
  tiles: Tiles,
  width: number,
  height: number,
  style: PaintStyle,
  centre: Point,
  random: () => number,
  window: Window,
): { rgb: Uint8Array; colours: Uint8Array; personTiles: number; look: TileLook } {
  // drawTiles reads the labels two pixels around the window: those must all be tiles.
  const { cut } = tiles;
  if (
    window.left - 2 < cut.left ||
    window.top - 2 < cut.top ||
    window.right + 2 > cut.right ||
    window.bottom + 2 > cut.bottom
  ) {
    throw new Error('the window reaches beyond the tiles cut');
  }
  const look = lookOfTiles(tiles, style, centre, random);
  const out = scratch('painted', Uint8Array, width * height * 3);
  drawTiles(tiles.labels, width, height, look, window, out);
  return { rgb: out, colours: look.colours, personTiles: look.personTiles, look };
}

/** Each tile's colour and light; `random` gives each tile its own slight brightness. */
export function lookOfTiles(tiles: Tiles, style: PaintStyle, centre: Point, random: () => number): TileLook {
  const { count, spacing } = tiles;
  const look = allocateLook(count);
  const { colours, rgb: tileRgb, base, slopeX, slopeY, joint: jointRgb, wide } = look;
  const isPerson = new Uint8Array(count);
  const besideVisitor = nearPerson(tiles);
  let personTiles = 0;
  for (let t = 0; t < count; t++) {
    const cx = tiles.x[t] as number;
    const cy = tiles.y[t] as number;
    const light = LIGHT / (spacing[t] as number);
    slopeX[t] = -0.6 * light;
    slopeY[t] = -0.8 * light;
    base[t] = 1 + (random() - 0.5) * 2 * JITTER + (0.6 * cx + 0.8 * cy) * light;
    look.cx[t] = cx;
    look.cy[t] = cy;
    look.cos[t] = tiles.cos[t] as number;
    look.sin[t] = tiles.sin[t] as number;
    look.inverseHalf[t] = 2 / (spacing[t] as number);
    let palette: Palette;
    if ((tiles.person[t] as number) >= 0.5) {
      palette = style.portrait;
      colours[t] = nearestColour(
        palette,
        tiles.lab[t * 3] as number,
        tiles.lab[t * 3 + 1] as number,
        tiles.lab[t * 3 + 2] as number,
        LIGHTNESS_WEIGHT,
      );
      isPerson[t] = 1;
      personTiles++;
      look.glass[t] = 1;
      look.bevel[t] = BEVEL.glass;
      look.sheen[t] = (palette.lab[(colours[t] as number) * 3] as number) > BRIGHT ? SHEEN.bright : SHEEN.glass;
    } else {
      palette = style.pattern;
      // The background row along the silhouette outlines the figure, as mosaicists do.
      colours[t] =
        tiles.outline[t] === 1 ? style.outline : patternIndex(cx, cy, centre, palette.size, besideVisitor(cx, cy));
      look.bevel[t] = BEVEL.stone;
    }
    const c = colours[t] as number;
    tileRgb[t * 3] = palette.rgb[c * 3] as number;
    tileRgb[t * 3 + 1] = palette.rgb[c * 3 + 1] as number;
    tileRgb[t * 3 + 2] = palette.rgb[c * 3 + 2] as number;
  }
  look.personTiles = personTiles;
  const [gr, gg, gb] = parseHex(style.grout);
  for (let t = 0; t < count; t++) wide[t] = (spacing[t] as number) >= WIDE_JOINT ? 1 : 0;
  // Joint colour per tile: its own colour in shadow inside the portrait, the grout elsewhere.
  for (let t = 0; t < count; t++) {
    const shade = isPerson[t] === 1;
    const k = (spacing[t] as number) < FINE ? PORTRAIT_JOINT_SHADE.fine : PORTRAIT_JOINT_SHADE.coarse;
    jointRgb[t * 3] = shade ? (tileRgb[t * 3] as number) * k : gr;
    jointRgb[t * 3 + 1] = shade ? (tileRgb[t * 3 + 1] as number) * k : gg;
    jointRgb[t * 3 + 2] = shade ? (tileRgb[t * 3 + 2] as number) * k : gb;
  }
  return look;
}

/** How far from the visitor the pattern keeps its accent colours: the outline row and one row of stones more. */
const QUIET_MARGIN = 56;
const QUIET_CELL = 8;

/** Whether a point lies beside the visitor, where the pattern keeps quiet (see `patternIndex`). */
function nearPerson(tiles: Tiles): (x: number, y: number) => boolean {
  const { count, x, y, person } = tiles;
  return nearFigure(count, x, y, (t) => (person[t] as number) >= 0.5, {
    left: 0,
    top: 0,
    right: LAYOUT.width,
    bottom: LAYOUT.height,
  });
}

/**
 * Whether a point of `area` lies within `QUIET_MARGIN` of one of the `figure` tiles (centres `x`, `y`): a
 * chamfer distance over a coarse grid of their centres (tiles of the figure are at most 22 px, so its grid
 * cells leave no gaps that matter at this margin).
 */
export function nearFigure(
  count: number,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  figure: (t: number) => boolean,
  area: Window,
): (x: number, y: number) => boolean {
  const { columns, rows } = quietGrid(area);
  const distance = markFigure(scratch('quiet-distance', Float32Array, columns * rows), count, x, y, figure, area);
  // Each cell keeps the least of its own distance and its visited neighbours' plus the step, in a
  // forward and a backward pass (`assembly/paint.ts`).
  chamferDistance(distance.byteOffset, columns, rows);
  return withinMargin(distance, area);
}

/** The coarse grid over `area` that `nearFigure` measures distances on. */
export function quietGrid(area: Window): { columns: number; rows: number } {
  return {
    columns: Math.ceil((area.right - area.left) / QUIET_CELL),
    rows: Math.ceil((area.bottom - area.top) / QUIET_CELL),
  };
}

/** `distance` (a `quietGrid` of `area`) with 0 at the `figure` tiles' cells and beyond the margin elsewhere. */
export function markFigure(
  distance: Float32Array,
  count: number,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  figure: (t: number) => boolean,
  area: Window,
): Float32Array {
  const { columns, rows } = quietGrid(area);
  distance.fill(QUIET_MARGIN / QUIET_CELL + 1);
  for (let t = 0; t < count; t++) {
    if (!figure(t)) continue;
    const column = Math.min(columns - 1, Math.max(0, Math.floor(((x[t] as number) - area.left) / QUIET_CELL)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor(((y[t] as number) - area.top) / QUIET_CELL)));
    distance[row * columns + column] = 0;
  }
  return distance;
}

/** Whether a point of `area` lies within `QUIET_MARGIN` of the figure, by the grid's chamfer `distance`. */
export function withinMargin(distance: Float32Array, area: Window): (x: number, y: number) => boolean {
  const { columns, rows } = quietGrid(area);
  return (x, y) => {
    const column = Math.min(columns - 1, Math.max(0, Math.floor((x - area.left) / QUIET_CELL)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor((y - area.top) / QUIET_CELL)));
    return (distance[row * columns + column] as number) * QUIET_CELL <= QUIET_MARGIN;
  };
}

/** Sets the look of one background tile of the pattern, lit like every other tile. */
export function lookOfPatternTile(
  look: TileLook,
  t: number,
  cx: number,
  cy: number,
  spacing: number,
  direction: { cos: number; sin: number },
  colour: number,
  style: PaintStyle,
  random: () => number,
): void {
  look.cx[t] = cx;
  look.cy[t] = cy;
  look.cos[t] = direction.cos;
  look.sin[t] = direction.sin;
  look.inverseHalf[t] = 2 / spacing;
  look.bevel[t] = BEVEL.stone;
  look.sheen[t] = 0;
  look.glass[t] = 0;
  const light = LIGHT / spacing;
  look.slopeX[t] = -0.6 * light;
  look.slopeY[t] = -0.8 * light;
  look.base[t] = 1 + (random() - 0.5) * 2 * JITTER + (0.6 * cx + 0.8 * cy) * light;
  look.colours[t] = colour;
  const [gr, gg, gb] = parseHex(style.grout);
  for (let c = 0; c < 3; c++) look.rgb[t * 3 + c] = style.pattern.rgb[colour * 3 + c] as number;
  look.joint[t * 3] = gr;
  look.joint[t * 3 + 1] = gg;
  look.joint[t * 3 + 2] = gb;
  look.wide[t] = spacing >= WIDE_JOINT ? 1 : 0;
}

export function allocateLook(count: number): TileLook {
  return {
    count,
    colours: new Uint8Array(count),
    personTiles: 0,
    rgb: new Float32Array(count * 3),
    joint: new Float32Array(count * 3),
    base: new Float32Array(count),
    slopeX: new Float32Array(count),
    slopeY: new Float32Array(count),
    cx: new Float32Array(count),
    cy: new Float32Array(count),
    cos: new Float32Array(count),
    sin: new Float32Array(count),
    inverseHalf: new Float32Array(count),
    bevel: new Float32Array(count),
    sheen: new Float32Array(count),
    glass: new Uint8Array(count),
    wide: new Uint8Array(count),
  };
}

/** Bytes per tile in `packedLook`, and where each number sits (as `assembly/paint.ts` reads them). */
const TILE_BYTES = 64;
const SINGLES = { rgb: 0, slopeX: 3, base: 4, slopeY: 5, bevel: 6, inverseHalf: 7, cx: 8, cy: 9, sheen: 10 };
const JOINT_WORD = 11;
const DOUBLES = { low: 6, high: 7 };
/** The joint word's byte that holds the wide flag (its three others hold the joint's RGB). */
const WIDE_BYTE = 3;
/** Numbers per part in the parts handed to the loop: left, top, right, bottom. */
const PART_NUMBERS = 4;

const chamferDistance = wasmFunction<(distance: number, columns: number, rows: number) => void>('chamferDistance');

const drawTileParts =
  wasmFunction<
    (
      labels: number,
      width: number,
      looks: number,
      parts: number,
      partCount: number,
      out: number,
      lightRow: number,
      sheenX: number,
      sheenY: number,
      sheenR2: number,
    ) => void
  >('drawTileParts');

/**
 * The look's per-tile numbers that drawing needs, side by side in one cache line per tile: each run
 * of pixels reads them at once instead of from a dozen arrays. All but the light's bounds are
 * singles already; the joint's colour is packed as the bytes it is drawn as.
 */
function packedLook(look: TileLook): number {
  const { count, rgb, joint, slopeX, base, slopeY, glass, bevel, inverseHalf, cx, cy, sheen, wide } = look;
  const singles = scratch('tile-looks', Float32Array, (count * TILE_BYTES) / Float32Array.BYTES_PER_ELEMENT);
  const { buffer, byteOffset } = singles;
  const doubles = new Float64Array(buffer, byteOffset, (count * TILE_BYTES) / Float64Array.BYTES_PER_ELEMENT);
  const bytes = new Uint8Array(buffer, byteOffset, count * TILE_BYTES);
  const perSingle = TILE_BYTES / Float32Array.BYTES_PER_ELEMENT;
  const perDouble = TILE_BYTES / Float64Array.BYTES_PER_ELEMENT;
  for (let t = 0; t < count; t++) {
    const s = t * perSingle;
    singles[s + SINGLES.rgb] = rgb[t * 3] as number;
    singles[s + SINGLES.rgb + 1] = rgb[t * 3 + 1] as number;
    singles[s + SINGLES.rgb + 2] = rgb[t * 3 + 2] as number;
    singles[s + SINGLES.slopeX] = slopeX[t] as number;
    singles[s + SINGLES.base] = base[t] as number;
    singles[s + SINGLES.slopeY] = slopeY[t] as number;
    singles[s + SINGLES.bevel] = bevel[t] as number;
    singles[s + SINGLES.inverseHalf] = inverseHalf[t] as number;
    singles[s + SINGLES.cx] = cx[t] as number;
    singles[s + SINGLES.cy] = cy[t] as number;
    singles[s + SINGLES.sheen] = sheen[t] as number;
    // A byte store truncates the joint's colour as drawing it would.
    const j = (t * perSingle + JOINT_WORD) * Float32Array.BYTES_PER_ELEMENT;
    bytes[j] = joint[t * 3] as number;
    bytes[j + 1] = joint[t * 3 + 1] as number;
    bytes[j + 2] = joint[t * 3 + 2] as number;
    bytes[j + WIDE_BYTE] = wide[t] as number;
    const range = glass[t] === 1 ? LIGHT_RANGE.glass : LIGHT_RANGE.stone;
    doubles[t * perDouble + DOUBLES.low] = range[0];
    doubles[t * perDouble + DOUBLES.high] = range[1];
  }
  return byteOffset;
}

/**
 * Draws the tiles of a label map (`width`×`height`, one tile index per pixel) into `out`, inside
 * `window` only. `lightRow` is the row of the label map that the tiles' light counts as row 0, so a
 * canvas holding the same tiles further down lights them exactly alike.
 */
export function drawTiles(
  labels: Uint16Array,
  width: number,
  height: number,
  look: TileLook,
  window: Window,
  out: Uint8Array,
  lightRow = 0,
): void {
  drawTilesIn(labels, width, height, look, [window], out, lightRow);
}

/**
 * `drawTiles` over several parts of one label map, the look packed once. A pixel comes out the same
 * whichever part draws it: it depends on its tile and the labels around it only. Row by row, in runs
 * of one tile, each pixel is a joint where the tile ends to its right or below (for a wide tile also
 * to its left or above), else the tile's colour under its light, its bevel and its sheen
 * (`assembly/paint.ts`).
 */
export function drawTilesIn(
  labels: Uint16Array,
  width: number,
  height: number,
  look: TileLook,
  parts: readonly Window[],
  out: Uint8Array,
  lightRow = 0,
): void {
  const bounds = scratch('tile-parts', Int32Array, parts.length * PART_NUMBERS);
  for (let k = 0; k < parts.length; k++) {
    const { left, top, right, bottom } = parts[k] as Window;
    // The frame covers the label map's outer two pixels, so no neighbour needs a bounds test.
    if (left < 2 || top < 2 || right > width - 2 || bottom > height - 2) {
      throw new Error('tiles are drawn only two pixels or more inside the label map');
    }
    bounds[k * PART_NUMBERS] = left;
    bounds[k * PART_NUMBERS + 1] = top;
    bounds[k * PART_NUMBERS + 2] = right;
    bounds[k * PART_NUMBERS + 3] = bottom;
  }
  // Pixels outside the parts keep what `out` held: an `out` of the caller's own is copied in and back.
  updateThrough(out, 'tile-out', (address) =>
    drawTileParts(
      addressOf(labels, 'tile-labels'),
      width,
      packedLook(look),
      bounds.byteOffset,
      parts.length,
      address,
      lightRow,
      SHEEN_X,
      SHEEN_Y,
      SHEEN_R2,
    ),
  );
}
