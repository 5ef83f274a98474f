import { DEFAULT_ART } from './default-art.js';
import { DEFAULT_MARKETS } from './default-markets.js';
import { type Campaign, type CampaignFile, campaignSchema } from './schema.js';

/** Today's campaign, as a campaign file would write it: what runs when no `CAMPAIGN_FILE` is given. */
export const DEFAULT_CAMPAIGN_FILE: CampaignFile = {
  brand: {
    brand: 'IQOS',
    partner: 'Tessera Studio',
    wordmark: 'IQOS × TESSERA STUDIO',
    experienceName: 'IQOS Mosaic',
    description: 'Create your personalised selfie mosaic: a portrait artwork made of thousands of tesserae.',
    share: { title: 'IQOS Mosaic Image', text: 'Check out my personalized IQOS mosaic!' },
    downloadFileName: 'iqos-mosaic.jpg',
  },
  // Teal and warm stone, set like tesserae.
  theme: {
    ink: '#13262b',
    inkSoft: '#3a4b50',
    stone50: '#fbf8f3',
    stone100: '#f4efe6',
    stone200: '#e8dfcf',
    stone300: '#d7cbb6',
    sand: '#f2e6cf',
    gold: '#d8b46a',
    primary: '#00b2a9',
    primaryLight: '#5fd3c9',
    primaryMist: '#d9f3ef',
    primaryStrong: '#007672',
    primaryDeep: '#0b4f4c',
    danger: '#a3271d',
  },
  art: DEFAULT_ART,
  legal: {
    dataProtection: 'https://www.iqos.com/{country}/{locale}/privacy-policy',
    imprint: 'https://www.iqos.com/{country}/{locale}/imprint',
  },
  markets: DEFAULT_MARKETS,
  copy: {},
};

export const DEFAULT_CAMPAIGN: Campaign = campaignSchema.parse(DEFAULT_CAMPAIGN_FILE);
