import { CAMPAIGN_ELEMENT_ID, publicCampaign, themeProperty } from './public.js';
import type { Campaign } from './schema.js';

/** `<`, `>` and `&` as JSON escapes: the data block can never close its own `<script>` element. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * What the campaign adds to index.html: the theme as CSS custom properties (`html:root` outranks the stylesheet's
 * `:root` whatever the order, and styles are in place before any script runs), and the public campaign as a JSON data
 * block, which the page reads without a request of its own and which the CSP allows (it is never executed).
 */
export function campaignHead(campaign: Campaign): string {
  const properties = Object.entries(campaign.theme)
    .map(([key, colour]) => `${themeProperty(key)}:${colour}`)
    .join(';');
  return (
    `<style id="campaign-theme">html:root{${properties}}</style>` +
    `<script type="application/json" id="${CAMPAIGN_ELEMENT_ID}">${scriptSafeJson(publicCampaign(campaign))}</script>`
  );
}

/**
 * index.html of the build with the campaign's title, description, theme and data; the phone's browser bar takes the
 * theme's deepest brand colour.
 */
export function withCampaign(html: string, campaign: Campaign): string {
  const { experienceName, description } = campaign.brand;
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(experienceName)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*(")/, `$1${escapeHtml(description)}$2`)
    .replace(/(<meta name="theme-color" content=")[^"]*(")/, `$1${escapeHtml(campaign.theme.primaryDeep)}$2`)
    .replace('</head>', `${campaignHead(campaign)}</head>`);
}
