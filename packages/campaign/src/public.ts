import type { Campaign } from './schema.js';

/** The id of the `<script type="application/json">` block that carries the public campaign into index.html. */
export const CAMPAIGN_ELEMENT_ID = 'campaign';

/** What the web app needs of the campaign: no art palette (the render workers have it). */
export type PublicCampaign = Pick<Campaign, 'brand' | 'theme' | 'markets' | 'copy'> & {
  /** The background pattern colours, for the decorative tiles of the UI. */
  tiles: readonly string[];
};

export function publicCampaign({ brand, theme, markets, copy, art }: Campaign): PublicCampaign {
  return { brand, theme, markets, copy, tiles: art.standard.pattern };
}

/** `primaryDeep` → `--primary-deep`, `stone50` → `--stone-50`: the theme's CSS custom properties. */
export function themeProperty(key: string): string {
  return `--${key
    .replace(/([A-Z])/g, '-$1')
    .replace(/(\d+)/g, '-$1')
    .toLowerCase()}`;
}
