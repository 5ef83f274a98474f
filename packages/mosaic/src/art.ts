import { type CampaignArt, DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';

/** The campaign's look of an artwork: its colours (portrait, pattern, grout, frame, wordmark) and the wordmark line. */
export interface Art {
  colours: CampaignArt;
  wordmark: string;
}

export type ArtVariantName = 'standard' | 'blacklabel';

/** Today's campaign: what `render` paints without an `art` option. */
export const DEFAULT_ART: Art = { colours: DEFAULT_CAMPAIGN.art, wordmark: DEFAULT_CAMPAIGN.brand.wordmark };

/**
 * What is built from an art once (palettes, frames) and reused for every render with the same art object: a worker
 * thread gets its campaign once at start and passes that same object to each render.
 */
export function perArt<T>(build: (art: Art) => T): (art: Art) => T {
  const built = new WeakMap<Art, T>();
  return (art) => {
    let value = built.get(art);
    if (value === undefined) {
      value = build(art);
      built.set(art, value);
    }
    return value;
  };
}
