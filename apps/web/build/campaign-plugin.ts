import { readFileSync } from 'node:fs';
import { type Campaign, DEFAULT_CAMPAIGN, parseCampaignText, withCampaign } from '@selfie-mosaic/campaign';
import type { Plugin } from 'vite';

/**
 * `npm run dev` serves index.html itself, so it puts the campaign in as the server does: `CAMPAIGN_FILE`'s, else
 * today's. The build leaves the page without one; the server adds the campaign it was started with.
 */
export function devCampaign(file = process.env.CAMPAIGN_FILE): Plugin {
  let campaign: Campaign | undefined;
  return {
    name: 'selfie-mosaic:dev-campaign',
    apply: 'serve',
    transformIndexHtml(html) {
      campaign ??= file ? parseCampaignText(readFileSync(file, 'utf8'), file) : DEFAULT_CAMPAIGN;
      return withCampaign(html, campaign);
    },
  };
}
