export { COPY_KEYS, type CopyKey } from './copy-keys.js';
export { COUNTRIES } from './countries.js';
export { DEFAULT_CAMPAIGN, DEFAULT_CAMPAIGN_FILE } from './default-campaign.js';
export { CampaignError, parseCampaign, parseCampaignText } from './load.js';
export { getLocale, isLocaleCode, LOCALE_CODES, LOCALES, type Locale, type LocaleCode } from './locales.js';
export { findMarket, type LegalLinks, legalLinks } from './markets.js';
export { campaignHead, withCampaign } from './page.js';
export { CAMPAIGN_ELEMENT_ID, type PublicCampaign, publicCampaign, themeProperty } from './public.js';
export { type Campaign, type CampaignArt, type CampaignFile, copyVariables, type Market } from './schema.js';
