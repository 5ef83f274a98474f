import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCampaignText } from './load.js';
import { campaignSchema } from './schema.js';

const SCHEMA_FILE = '../campaign.schema.json';

/** The JSON Schema of a campaign file, what editors complete and check against (`"$schema"` in the file). */
function jsonSchema(): string {
  const schema = z.toJSONSchema(campaignSchema, { io: 'input', unrepresentable: 'any' });
  const document = {
    ...schema,
    title: 'Selfie Mosaic campaign',
    description: 'One campaign: brand, theme, art, markets, legal links and copy (README "The campaign file").',
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

describe('campaign.schema.json', () => {
  it('is generated from the zod schema (`npm run schema -w packages/campaign` rewrites it)', async () => {
    await expect(jsonSchema()).toMatchFileSnapshot(SCHEMA_FILE);
  });

  it('lets an editor complete countries, locales and copy keys', () => {
    const schema = JSON.parse(readFileSync(new URL(SCHEMA_FILE, import.meta.url), 'utf8'));
    expect(schema.properties.markets.propertyNames.enum).toContain('nl');
    expect(schema.properties.copy.propertyNames.enum).toContain('jo-ar');
    expect(schema.properties.copy.additionalProperties.propertyNames.enum).toContain('start.question');
    expect(schema.required).toEqual(expect.arrayContaining(['brand', 'theme', 'art', 'legal', 'markets']));
  });
});

describe('the example campaigns (campaigns/*.json)', () => {
  const folder = new URL('../../../campaigns/', import.meta.url);
  const files = readdirSync(folder).filter((name) => name.endsWith('.json'));

  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s is a valid campaign whose $schema an editor finds', (name) => {
    const text = readFileSync(new URL(name, folder), 'utf8');
    expect(() => parseCampaignText(text, name)).not.toThrow();
    const schema = new URL(JSON.parse(text).$schema, new URL(name, folder));
    expect(schema.href).toBe(new URL(SCHEMA_FILE, import.meta.url).href);
  });
});
