import {
  CAMPAIGN_ELEMENT_ID,
  findMarket as findIn,
  type LocaleCode,
  type Market,
  type PublicCampaign,
} from '@selfie-mosaic/campaign';

/**
 * The running campaign, as the server put it into index.html (a JSON data block, read without a request of its own):
 * a new campaign needs a restart of the server, never a new build of the app. The server validated it at start.
 */
function readCampaign(): PublicCampaign {
  const text = document.getElementById(CAMPAIGN_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`index.html carries no #${CAMPAIGN_ELEMENT_ID} data: serve the app through its server`);
  return JSON.parse(text) as PublicCampaign;
}

export const campaign: PublicCampaign = readCampaign();

/** Finds a market of the campaign by its country code, case-insensitively. */
export function findMarket(country: string): Market | undefined {
  return findIn(campaign, country);
}

/** Every locale some market of the campaign offers, in the order the markets list them. */
export const CAMPAIGN_LOCALES: readonly LocaleCode[] = [...new Set(campaign.markets.flatMap((m) => m.locales))];
