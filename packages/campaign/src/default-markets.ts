import type { CampaignFile } from './schema.js';

/**
 * Today's markets (docs/product.md#locales-and-markets). Every prefixed locale belongs to its own country and every
 * plain language code to at least the country where it is the main language (`ka` → `ge`, `kk` → `kz`, `bm` → `me`
 * and `ba`). The minimum age is the country's law, whatever the language (18 where none is given).
 */
export const DEFAULT_MARKETS: CampaignFile['markets'] = {
  ae: { locales: ['ae-ar', 'en'], confirmResidence: true },
  al: { locales: ['sq', 'en'] },
  am: { locales: ['hy', 'ru', 'en'] },
  ad: { locales: ['ca', 'es', 'fr'] },
  at: { locales: ['de', 'en'] },
  az: { locales: ['az', 'ru', 'en'] },
  ba: { locales: ['bm', 'hr', 'en'] },
  bg: { locales: ['bg', 'en'] },
  ch: { locales: ['de', 'fr', 'it', 'en'] },
  cy: { locales: ['el', 'en'] },
  cz: { locales: ['cs', 'en'] },
  de: { locales: ['de', 'en'] },
  ee: { locales: ['et', 'ru', 'en'] },
  eg: { locales: ['eg-ar', 'en'], confirmResidence: true },
  es: { locales: ['es', 'ca', 'en'] },
  fr: { locales: ['fr', 'en'] },
  gb: { locales: ['en'] },
  ge: { locales: ['ka', 'en'] },
  gr: { locales: ['el', 'en'] },
  hr: { locales: ['hr', 'en'] },
  it: { locales: ['it', 'en'] },
  jo: { locales: ['jo-ar', 'jo-en'], confirmResidence: true, minimumAge: 19 },
  kw: { locales: ['kw-ar', 'en'], confirmResidence: true },
  kz: { locales: ['kk', 'kz-ru'], confirmResidence: true, minimumAge: 21 },
  lb: { locales: ['lb-ar', 'en'], confirmResidence: true },
  lt: { locales: ['lt', 'en'] },
  lv: { locales: ['lv', 'ru', 'en'], minimumAge: 20 },
  me: { locales: ['bm', 'en'] },
  mk: { locales: ['mk', 'en'] },
  pl: { locales: ['pl', 'en'] },
  pt: { locales: ['pt', 'en'] },
  ro: { locales: ['ro', 'en'] },
  rs: { locales: ['bm', 'en'] },
  ru: { locales: ['ru'], minimumAge: 20 },
  sa: { locales: ['sa-ar', 'en'], confirmResidence: true },
  sk: { locales: ['sk', 'en'] },
  tr: { locales: ['tr', 'en'] },
  uz: { locales: ['uz', 'ru'] },
};
