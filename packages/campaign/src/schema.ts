import { z } from 'zod';
import { COPY_KEYS, type CopyKey } from './copy-keys.js';
import { COUNTRIES } from './countries.js';
import { LOCALE_CODES } from './locales.js';

/**
 * One campaign, as an operator writes it in `CAMPAIGN_FILE` (README "The campaign file"). The JSON Schema
 * (`campaign.schema.json`) is generated from this, so the descriptions here are what an editor shows.
 */

const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour as #rrggbb')
  .transform((value) => value.toLowerCase());

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** Absolute https URLs; `{country}` and `{locale}` are filled in per market and language. */
const legalUrl = z
  .url({ protocol: /^https$/, error: 'expected an absolute https:// URL' })
  .refine((url) => !/\{(?!country\}|locale\})/.test(url), 'only {country} and {locale} can be filled in')
  .describe('An absolute https URL; {country} and {locale} are replaced by the market and language codes');

const legalSchema = z.strictObject({
  dataProtection: legalUrl.describe('The data protection (privacy) notice linked from the start screen'),
  imprint: legalUrl.describe('The imprint (legal notice) linked from the start screen'),
  terms: legalUrl
    .optional()
    .describe("The operator's own terms; without it the terms screen of the experience is linked"),
});

const brandSchema = z.strictObject({
  brand: text(40).describe('The brand, left of the × in the header'),
  partner: text(40).describe('The design partner, right of the ×'),
  wordmark: text(40).describe('The line set on the artwork frame, e.g. "BRAND × PARTNER"'),
  experienceName: text(60).describe('The page title suffix: "Welcome | <experienceName>"'),
  description: text(300).describe('The page description for search engines and link previews'),
  share: z.strictObject({
    title: text(80).describe('The share sheet title'),
    text: text(200).describe('The share text, sent when the device shares a link instead of the picture'),
  }),
  downloadFileName: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,60}\.jpg$/, 'expected a file name like brand-mosaic.jpg')
    .describe('The name the downloaded or shared artwork gets'),
});

/** The UI colours; each becomes the CSS custom property of the same name in kebab case (`primaryDeep` → `--primary-deep`). */
const themeSchema = z.strictObject({
  ink: colour.describe('Body text'),
  inkSoft: colour.describe('Secondary text'),
  stone50: colour.describe('Cards and raised surfaces'),
  stone100: colour.describe('The page background'),
  stone200: colour.describe('Borders and quiet fills'),
  stone300: colour.describe('Stronger borders'),
  sand: colour.describe('Warm highlight fills'),
  gold: colour.describe('Accent (focus rings, the background glow)'),
  primary: colour.describe('The brand colour'),
  primaryLight: colour.describe('A light tint of the brand colour (the background glow)'),
  primaryMist: colour.describe('The palest tint of the brand colour (selected and hover fills)'),
  primaryStrong: colour.describe('Buttons and links: white text must read on it (WCAG AA)'),
  primaryDeep: colour.describe('Headings and pressed buttons'),
  danger: colour.describe('Error messages'),
});

const variantSchema = z
  .strictObject({
    pattern: z
      .array(colour)
      .min(5)
      .max(16)
      .describe(
        'The background tesserae in rings around the visitor: the first three the deep rings (outer to inner), the fourth the light ring, the last two the accent ring',
      ),
    grout: colour.describe('The grout between tesserae'),
    outline: colour.describe('The row of tesserae outlining the visitor: one of the pattern colours'),
    frame: colour.describe('The frame around the artwork'),
    wordmark: colour.describe('The wordmark on the frame'),
  })
  .superRefine((variant, context) => {
    if (!variant.pattern.includes(variant.outline)) {
      context.addIssue({ code: 'custom', path: ['outline'], message: 'must be one of the pattern colours' });
    }
  });

const artSchema = z.strictObject({
  portrait: z
    .array(colour)
    .min(24)
    .max(512)
    .describe('The tesserae the visitor is laid in: skin, hair and clothing tones (nearest colour wins)'),
  standard: variantSchema.describe('The artwork in markets without black label'),
  blacklabel: variantSchema.describe('The dark "black label" artwork'),
});

const marketSchema = z.strictObject({
  locales: z
    .array(z.enum(LOCALE_CODES))
    .min(1)
    .refine((locales) => new Set(locales).size === locales.length, 'lists a locale twice')
    .describe('The languages offered, the first is the default'),
  minimumAge: z
    .number()
    .int()
    .min(16)
    .max(25)
    .nullable()
    .default(18)
    .describe('The age the age gate asks; null asks for "legal age" without a number'),
  confirmResidence: z
    .boolean()
    .default(false)
    .describe('Adds "Are you {age} or older and living in {country}?" to the start screen'),
  blackLabel: z.boolean().default(false).describe("This market's artworks use the dark black-label variant"),
  legal: legalSchema.partial().optional().describe("This market's own legal links, replacing the campaign's"),
});

const copyKeySchema = z.enum(Object.keys(COPY_KEYS) as [CopyKey, ...CopyKey[]]);

const campaignObject = z.strictObject({
  $schema: z.string().optional().describe('The JSON Schema this file follows, for editors'),
  brand: brandSchema,
  theme: themeSchema,
  art: artSchema,
  legal: legalSchema.describe('The legal links of every market (a market may replace them)'),
  markets: z
    .partialRecord(z.enum(COUNTRIES), marketSchema)
    .refine((markets) => Object.keys(markets).length > 0, 'needs at least one market')
    .describe('Country (ISO 3166-1 alpha-2, lower case) → the market'),
  copy: z
    .partialRecord(z.enum(LOCALE_CODES), z.partialRecord(copyKeySchema, text(2000)))
    .default({})
    .describe('Replacement copy per locale and key, e.g. {"en": {"start.eyebrow": "…"}}'),
});

/** What a copy text fills in or marks up: its variables (`{{age}}`) and the elements of its markup (`<terms>`). */
export function copyVariables(value: string): string[] {
  const variables = [...value.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((match) => `{{${match[1]}}}`);
  const elements = [...value.matchAll(/<(\w+)>/g)].map((match) => `<${match[1]}>`);
  return [...new Set([...variables, ...elements])].sort();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Overrides go to languages the campaign offers and keep the original's variables. Checked even when other fields are
 * bad (`when`), so one start names every problem; the values may then be malformed, hence the guards.
 */
const checkedCampaign = campaignObject.superRefine(
  (campaign, context) => {
    const markets = isRecord(campaign.markets) ? Object.values(campaign.markets) : [];
    const offered = new Set(markets.flatMap((market) => (Array.isArray(market?.locales) ? market.locales : [])));
    for (const [locale, overrides] of Object.entries(isRecord(campaign.copy) ? campaign.copy : {})) {
      if (!offered.has(locale as never)) {
        context.addIssue({ code: 'custom', path: ['copy', locale], message: 'no market of the campaign offers it' });
      }
      for (const [key, value] of Object.entries(isRecord(overrides) ? overrides : {})) {
        const expected = COPY_KEYS[key as CopyKey];
        if (!expected || typeof value !== 'string') continue;
        const found = copyVariables(value);
        if (found.join() !== expected.join()) {
          const names = (list: readonly string[]) => list.join(', ') || 'none';
          context.addIssue({
            code: 'custom',
            path: ['copy', locale, key],
            message: `uses the variables ${names(found)} but the original uses ${names(expected)}`,
          });
        }
      }
    }
  },
  { when: () => true },
);

/** A market as the app uses it: its country, and the legal links resolved against the campaign's. */
export interface Market {
  country: string;
  locales: readonly (typeof LOCALE_CODES)[number][];
  minimumAge: number | null;
  confirmResidence: boolean;
  blackLabel: boolean;
  legal: z.output<typeof legalSchema>;
}

export const campaignSchema = checkedCampaign.transform(({ $schema: _schema, markets, legal, ...campaign }) => ({
  ...campaign,
  markets: Object.entries(markets).map(
    ([country, market]): Market => ({
      country,
      locales: market.locales,
      minimumAge: market.minimumAge,
      confirmResidence: market.confirmResidence,
      blackLabel: market.blackLabel,
      legal: { ...legal, ...market.legal },
    }),
  ),
}));

/** What a campaign file holds. */
export type CampaignFile = z.input<typeof campaignSchema>;
/** A validated campaign, markets in file order. */
export type Campaign = z.output<typeof campaignSchema>;
export type CampaignArt = Campaign['art'];
