import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CAMPAIGN_ELEMENT_ID,
  type CampaignFile,
  DEFAULT_CAMPAIGN,
  DEFAULT_CAMPAIGN_FILE,
  parseCampaign,
  publicCampaign,
  withCampaign,
} from '@selfie-mosaic/campaign';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, newSessionId, startTestServer, type TestServer } from '../test/harness.js';

const INDEX =
  '<!doctype html><html><head><title>IQOS Mosaic</title><meta name="theme-color" content="#0b5f5c" />' +
  '<meta name="description" content="old" /></head>' +
  '<body><div id="root"></div></body></html>';

/** A campaign of another brand in the Netherlands and Germany only, with a brand name that tries to end the script. */
const OTHER: CampaignFile = {
  ...DEFAULT_CAMPAIGN_FILE,
  brand: {
    ...DEFAULT_CAMPAIGN_FILE.brand,
    brand: 'Aurora</script><script>alert(1)</script>',
    experienceName: 'Aurora & Co',
  },
  theme: { ...DEFAULT_CAMPAIGN_FILE.theme, primaryStrong: '#7a1f5c', primaryDeep: '#4a1d63' },
  markets: { nl: { locales: ['en'], blackLabel: true }, de: { locales: ['de', 'en'], minimumAge: null } },
  copy: { en: { 'start.eyebrow': 'A mosaic by Aurora' } },
};

/** The JSON data block of a served page, as the web app reads it. */
function dataBlock(html: string): unknown {
  const match = html.match(new RegExp(`<script type="application/json" id="${CAMPAIGN_ELEMENT_ID}">([^<]*)</script>`));
  if (!match?.[1]) throw new Error('the page carries no campaign');
  return JSON.parse(match[1]);
}

describe('the campaign in index.html', () => {
  it('carries the public campaign as data that cannot close its element, and the theme as CSS properties', () => {
    const campaign = parseCampaign(OTHER);
    const html = withCampaign(INDEX, campaign);
    expect(dataBlock(html)).toEqual(JSON.parse(JSON.stringify(publicCampaign(campaign))));
    expect(html).not.toContain('</script><script>alert');
    expect(html).toContain('<title>Aurora &amp; Co</title>');
    expect(html).toContain('<meta name="theme-color" content="#4a1d63" />');
    expect(html).toContain(`<meta name="description" content="${DEFAULT_CAMPAIGN.brand.description}" />`);
    expect(html).toMatch(/<style id="campaign-theme">html:root\{[^}]*--primary-strong:#7a1f5c;/);
    expect(html).toMatch(/<style id="campaign-theme">html:root\{[^}]*--stone-50:#fbf8f3;/);
    // The art palette stays with the render workers.
    expect(JSON.stringify(dataBlock(html))).not.toContain(DEFAULT_CAMPAIGN.art.portrait[0]);
  });
});

describe('a server started with CAMPAIGN_FILE', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer();
    const webDist = path.join(server.dataDir, 'web');
    mkdirSync(webDist, { recursive: true });
    writeFileSync(path.join(webDist, 'index.html'), INDEX);
    const file = path.join(server.dataDir, 'campaign.json');
    writeFileSync(file, JSON.stringify(OTHER));
    await server.close();
    server = await startTestServer({ WEB_DIST: webDist, CAMPAIGN_FILE: file }, { dataDir: server.dataDir });
    client = await new Client(server.url).init();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('sends the web app the campaign of the file', async () => {
    const page = await fetch(`${server.url}/nl/en/start`);
    expect(page.status).toBe(200);
    const campaign = dataBlock(await page.text()) as ReturnType<typeof publicCampaign>;
    expect(campaign.markets.map((market) => market.country)).toEqual(['nl', 'de']);
    expect(campaign.markets[0]?.blackLabel).toBe(true);
    expect(campaign.copy).toEqual({ en: { 'start.eyebrow': 'A mosaic by Aurora' } });
  });

  it('serves the pages of its markets and a 404 for a market only today’s campaign has', async () => {
    expect((await fetch(`${server.url}/nl`)).status).toBe(200);
    expect((await fetch(`${server.url}/DE/de/start`)).status).toBe(200);
    expect((await fetch(`${server.url}/gb/en/start`)).status).toBe(404);
    expect((await fetch(`${server.url}/gb`)).status).toBe(404);
  });

  it('records consents and page views in its markets only', async () => {
    expect((await client.consent(newSessionId(), { country_iso: 'NL', language: 'en' })).status).toBe(201);
    const refused = await client.consent(newSessionId(), { country_iso: 'gb', language: 'en' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'Invalid field "country_iso": must be a country the campaign runs in',
      code: 'invalidField',
    });
    const pageview = (country: string) =>
      client.postJson('/api/analytics/pageview', {
        country_iso: country,
        language: 'en',
        page_path: `/${country}/en/start`,
        ip_address: null,
        user_agent: null,
      });
    expect((await pageview('nl')).status).toBe(204);
    expect((await pageview('gb')).status).toBe(400);
  });
});
