import {
  CAMPAIGN_ELEMENT_ID,
  DEFAULT_CAMPAIGN,
  DEFAULT_CAMPAIGN_FILE,
  parseCampaign,
  publicCampaign,
} from '@selfie-mosaic/campaign';
import { afterEach, describe, expect, it, vi } from 'vitest';

const element = () => document.getElementById(CAMPAIGN_ELEMENT_ID) as HTMLElement;
const today = element().textContent;

/** The app as loaded from a page the server wrote with `data` in it. */
async function loadWith(data: string | null) {
  element().textContent = data;
  vi.resetModules();
  return import('./campaign');
}

afterEach(() => {
  element().textContent = today;
  vi.resetModules();
});

describe('the campaign of the page', () => {
  it('is what the server put into index.html', async () => {
    const other = parseCampaign({
      ...DEFAULT_CAMPAIGN_FILE,
      brand: { ...DEFAULT_CAMPAIGN_FILE.brand, brand: 'Aurora' },
      markets: { nl: { locales: ['en', 'de'], blackLabel: true } },
    });
    const { campaign, findMarket, CAMPAIGN_LOCALES } = await loadWith(JSON.stringify(publicCampaign(other)));
    expect(campaign.brand.brand).toBe('Aurora');
    expect(findMarket('NL')?.blackLabel).toBe(true);
    expect(findMarket('gb')).toBeUndefined();
    expect(CAMPAIGN_LOCALES).toEqual(['en', 'de']);
  });

  it('is today’s in a page served with today’s campaign', async () => {
    const { campaign, findMarket } = await loadWith(today);
    expect(campaign.brand).toEqual(DEFAULT_CAMPAIGN.brand);
    expect(findMarket('jo')?.minimumAge).toBe(19);
  });

  it('is missing, said plainly, when the page was not served by the server', async () => {
    await expect(loadWith(null)).rejects.toThrow(/index\.html carries no #campaign data/);
  });
});
