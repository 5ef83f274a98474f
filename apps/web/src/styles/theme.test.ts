// @vitest-environment node
import { readFileSync } from 'node:fs';
import { DEFAULT_CAMPAIGN, themeProperty } from '@selfie-mosaic/campaign';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./global.css', import.meta.url), 'utf8');

/** The custom properties the stylesheet's `:root` sets. */
function rootProperties(): Record<string, string> {
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  return Object.fromEntries([...root.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value]));
}

describe('the theme', () => {
  it('of today’s campaign is the stylesheet’s own colours, so a page without a campaign looks the same', () => {
    const properties = rootProperties();
    for (const [key, colour] of Object.entries(DEFAULT_CAMPAIGN.theme)) {
      expect(properties[themeProperty(key)], key).toBe(colour);
    }
  });

  it('is every colour the stylesheet names: no brand colour is written into a rule', () => {
    const rules = css.replace(/:root\s*\{[^}]*\}/, '');
    const colours = Object.values(DEFAULT_CAMPAIGN.theme);
    for (const colour of colours) expect(rules.toLowerCase(), colour).not.toContain(colour);
  });
});
