import { campaign } from '../campaign';

const PALETTES = {
  campaign: campaign.tiles,
  /** Quiet warm stone, for pages that end the journey (exit, errors). */
  stone: ['#e8dfcf', '#d7cbb6', '#f2e6cf', '#c9c3ba', '#b9ab92', '#efe8dc'],
} as const;

/** Small deterministic pseudo-random sequence so the pattern is the same on every render and build. */
function tileColours(count: number, seed: number, palette: readonly string[]): string[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return palette[state % palette.length] ?? '#e8dfcf';
  });
}

/** The rank in which each tile is laid: a seeded shuffle, like a mosaicist working across the whole picture. */
function layingOrder(count: number, seed: number): number[] {
  const sequence = Array.from({ length: count }, (_, index) => index);
  let state = seed * 7919 + 1;
  for (let index = count - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [sequence[index], sequence[other]] = [sequence[other] as number, sequence[index] as number];
  }
  const ranks = new Array<number>(count);
  sequence.forEach((tile, rank) => {
    ranks[tile] = rank;
  });
  return ranks;
}

interface MosaicMarkProps {
  columns?: number;
  rows?: number;
  seed?: number;
  /** Tiles settle one after another, like a mosaic being laid (skipped with reduced motion). */
  animated?: boolean;
  className?: string;
  palette?: keyof typeof PALETTES;
  /** 0–100: only this share of the tiles is laid, the rest wait as bare stone. */
  progress?: number;
}

/** A decorative field of tesserae in the campaign palette. */
export function MosaicMark({
  columns = 8,
  rows = 4,
  seed = 7,
  animated = false,
  className,
  palette = 'campaign',
  progress = 100,
}: MosaicMarkProps) {
  const size = 10;
  const gap = 1.5;
  const count = columns * rows;
  const colours = tileColours(count, seed, PALETTES[palette]);
  const laid = Math.round((count * Math.min(100, Math.max(0, progress))) / 100);
  const ranks = layingOrder(count, seed);
  const order = (index: number) => ranks[index] ?? index;
  return (
    <svg
      className={`mosaic-mark${animated ? ' mosaic-mark--animated' : ''}${className ? ` ${className}` : ''}`}
      viewBox={`0 0 ${columns * size} ${rows * size}`}
      aria-hidden="true"
      focusable="false"
    >
      {colours.map((fill, index) => {
        const x = (index % columns) * size;
        const y = Math.floor(index / columns) * size;
        return (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: tiles are a fixed grid, their index is their identity.
            key={index}
            x={x + gap / 2}
            y={y + gap / 2}
            width={size - gap}
            height={size - gap}
            rx={1.6}
            fill={order(index) < laid ? fill : undefined}
            className={order(index) < laid ? undefined : 'tile--waiting'}
            style={animated ? { animationDelay: `${order(index) * (700 / count)}ms` } : undefined}
          />
        );
      })}
    </svg>
  );
}
