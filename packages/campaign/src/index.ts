export { COPY_KEYS, type CopyKey } from './copy-keys.js';
export { COUNTRIES, type Country } from './countries.js';
export { DEFAULT_CAMPAIGN, DEFAULT_CAMPAIGN_FILE } from './default-campaign.js';
export { CampaignError, parseCampaign, parseCampaignText } from './load.js';
export { getLocale, isLocaleCode, LOCALE_CODES, LOCALES, type Locale, type LocaleCode } from './locales.js';
export { findMarket, isMarketLocale, type LegalLinks, legalLinks, marketsForLocale } from './markets.js';
export { campaignHead, withCampaign } from './page.js';
export { CAMPAIGN_ELEMENT_ID, type PublicCampaign, publicCampaign, themeProperty } from './public.js';
export {
  type ArtVariant,
  type Brand,
  type Campaign,
  type CampaignArt,
  type CampaignFile,
  campaignSchema,
  copyVariables,
  type Market,
  type Theme,
} from './schema.js';
