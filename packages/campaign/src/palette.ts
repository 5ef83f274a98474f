/**
 * The campaign's art palette: every tessera of an artwork is one of these colours (sRGB hex).
 * The portrait set spans skin, hair and clothing for every visitor; the pattern set paints the
 * background; each variant names the frame and wordmark colours.
 */
export interface ArtVariant {
  /** Colours for the background pattern behind the visitor. */
  pattern: readonly string[];
  /** Grout between tesserae. */
  grout: string;
  frame: string;
  wordmark: string;
}

export const PORTRAIT_COLOURS: readonly string[] = [
  // skin, light to deep
  '#f6e1d3',
  '#efcfb8',
  '#e6bc9f',
  '#dcaa88',
  '#d09877',
  '#c08363',
  '#ad6e4f',
  '#99603f',
  '#824d33',
  '#6c3e29',
  '#573121',
  '#43261a',
  // rose and warm shadows
  '#e3a590',
  '#c9786a',
  '#a65449',
  '#7a3a34',
  // hair and deep shadows
  '#2b1d17',
  '#1b1512',
  '#3d2b22',
  '#5e4535',
  '#8a6a4f',
  '#b8966c',
  '#d9bf8c',
  // neutrals
  '#fbf8f3',
  '#e7e2da',
  '#c9c3ba',
  '#a39d95',
  '#7b766f',
  '#55514c',
  '#33312e',
  '#121212',
  // cool accents for eyes, clothing and light
  '#9fb4c7',
  '#5f7f9c',
  '#34506b',
  '#6b8f7e',
  '#3f6656',
];

export const ART_VARIANTS = {
  standard: {
    pattern: ['#00b2a9', '#00938c', '#007672', '#5fd3c9', '#b9ebe5', '#f2e6cf', '#d8b46a'],
    grout: '#f4efe6',
    frame: '#f4efe6',
    wordmark: '#1c2a33',
  },
  blacklabel: {
    pattern: ['#1a1a1a', '#262626', '#333333', '#4a4036', '#8c7446', '#b8985a', '#d9c08a'],
    grout: '#0d0d0d',
    frame: '#0d0d0d',
    wordmark: '#d9c08a',
  },
} as const satisfies Record<string, ArtVariant>;

export type ArtVariantName = keyof typeof ART_VARIANTS;
