import { describe, expect, it } from 'vitest';
import {
  CampaignError,
  type CampaignFile,
  DEFAULT_CAMPAIGN,
  DEFAULT_CAMPAIGN_FILE,
  parseCampaign,
  parseCampaignText,
} from './index.js';

/** A copy of today's campaign file that a test may change freely. */
function file(): CampaignFile {
  return structuredClone(DEFAULT_CAMPAIGN_FILE);
}

function problems(data: unknown): string[] {
  try {
    parseCampaign(data, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(CampaignError);
    const [heading, ...lines] = (error as Error).message.split('\n');
    expect(heading).toBe('Invalid campaign in test.json:');
    return lines.map((line) => line.trim());
  }
  throw new Error('Expected the campaign to be refused but it was accepted');
}

describe('a campaign file', () => {
  it('without changes is today’s campaign', () => {
    expect(parseCampaign(file())).toEqual(DEFAULT_CAMPAIGN);
    expect(DEFAULT_CAMPAIGN.brand.share).toEqual({
      title: 'IQOS Mosaic Image',
      text: 'Check out my personalized IQOS mosaic!',
    });
    expect(DEFAULT_CAMPAIGN.markets).toHaveLength(38);
    expect(DEFAULT_CAMPAIGN.art.portrait).toHaveLength(194);
    expect(DEFAULT_CAMPAIGN.copy).toEqual({});
  });

  it('names every bad field in one message, each with its path', () => {
    const good = file();
    const bad = {
      ...good,
      brand: { ...good.brand, partner: '' },
      theme: { ...good.theme, primary: 'teal' },
      art: { ...good.art, standard: { ...good.art.standard, outline: '#123456' } },
      legal: { ...good.legal, imprint: 'http://example.com/imprint' },
      markets: { ...good.markets, de: { locales: ['de', 'xx'], minimumAge: 12 }, zz: { locales: ['en'] } },
      colour: 'red',
      copy: { en: { 'start.question': 'Are you an adult?' }, fr: { 'start.yes': 'Oui' } },
    };
    expect(problems(bad)).toEqual(
      expect.arrayContaining([
        'brand.partner: must not be empty',
        'theme.primary: expected a colour as #rrggbb',
        'art.standard.outline: must be one of the pattern colours',
        'legal.imprint: expected an absolute https:// URL',
        expect.stringMatching(/^markets\.de\.minimumAge: /),
        expect.stringMatching(/^markets\.de\.locales\[1\]: /),
        'markets.zz: not an ISO 3166-1 alpha-2 country code',
        'colour: not a field of the campaign file',
        'copy.en["start.question"]: uses the variables none but the original uses {{age}}',
      ]),
    );
    // French stays offered (Switzerland, Andorra): only the English override is wrong.
    expect(problems(bad)).toHaveLength(9);
  });

  it('lets legal links carry {country} and {locale}, nothing else', () => {
    const bad = file();
    bad.legal.terms = 'https://example.com/{market}/terms';
    expect(problems(bad)).toEqual(['legal.terms: only {country} and {locale} can be filled in']);
  });

  it('refuses copy for keys the app does not have and for languages no market offers', () => {
    const bad = file();
    bad.markets = { gb: { locales: ['en'] } };
    bad.copy = { en: { 'start.eyebrow': 'Hello', 'start.nonsense': 'x' } as never, de: { 'start.yes': 'Ja' } };
    expect(problems(bad)).toEqual([
      'copy.en["start.nonsense"]: no such copy key',
      'copy.de: no market of the campaign offers it',
    ]);
  });

  it('refuses an override that drops or invents a variable', () => {
    const bad = file();
    bad.copy = {
      en: { 'start.question': 'Are you an adult?', 'start.eyebrow': 'Hi {{name}}', 'curious.agree': 'I agree' },
    };
    expect(problems(bad)).toEqual([
      'copy.en["start.question"]: uses the variables none but the original uses {{age}}',
      'copy.en["start.eyebrow"]: uses the variables {{name}} but the original uses none',
      'copy.en["curious.agree"]: uses the variables none but the original uses <terms>',
    ]);
  });

  it('accepts overrides that keep the variables, and a market’s own legal links', () => {
    const good = file();
    good.copy = { 'jo-ar': { 'start.question': 'هل عمرك {{age}} عامًا أو أكثر؟' } };
    good.markets = {
      ...good.markets,
      nl: { locales: ['en'], minimumAge: null, blackLabel: true, legal: { imprint: 'https://nl.example/imprint' } },
    };
    const campaign = parseCampaign(good);
    expect(campaign.copy['jo-ar']?.['start.question']).toContain('{{age}}');
    expect(campaign.markets.at(-1)).toEqual({
      country: 'nl',
      locales: ['en'],
      minimumAge: null,
      confirmResidence: false,
      blackLabel: true,
      legal: {
        dataProtection: 'https://www.iqos.com/{country}/{locale}/privacy-policy',
        imprint: 'https://nl.example/imprint',
      },
    });
  });

  it('says so when the text is not JSON', () => {
    expect(() => parseCampaignText('{"brand": ', '/etc/campaign.json')).toThrow(
      /^Invalid campaign in \/etc\/campaign\.json: not JSON \(/,
    );
  });
});
