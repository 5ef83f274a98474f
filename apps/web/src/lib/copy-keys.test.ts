import { COPY_KEYS, copyVariables } from '@selfie-mosaic/campaign';
import { describe, expect, it } from 'vitest';
import english from '../locales/en.json';
import { mergeEnglish } from './i18n';

/** Every key of the English copy the app shows, with the variables and markup each one fills in. */
function copyKeys(resources: Record<string, unknown>, prefix = ''): [string, string[]][] {
  return Object.entries(resources).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, copyVariables(value)] as [string, string[]]]
      : copyKeys(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

/**
 * The campaign file's copy overrides are checked against packages/campaign/src/copy-keys.ts. Packages cannot read the
 * app's copy, so that list is written from it here; when copy changes this test fails until it is rewritten with
 * `npm run copy-keys -w apps/web`.
 */
describe('the copy keys a campaign may override', () => {
  it('are exactly the keys and variables of the English copy', async () => {
    const keys = copyKeys(mergeEnglish(english)).sort(([a], [b]) => a.localeCompare(b));
    // Written as biome formats it, so `biome check --write` leaves the file as this test expects it.
    const quote = (text: string) => `'${text}'`;
    const lines = keys.map(([key, variables]) => `  ${quote(key)}: [${variables.map(quote).join(', ')}],`);
    const source = [
      '// Written by apps/web/src/lib/copy-keys.test.ts from the English copy (`npm run copy-keys -w apps/web`).',
      '',
      '/** Every copy key the web app shows → the variables and markup its text uses. */',
      'export const COPY_KEYS = {',
      ...lines,
      '} as const satisfies Record<string, readonly string[]>;',
      '',
      'export type CopyKey = keyof typeof COPY_KEYS;',
      '',
    ].join('\n');
    await expect(source).toMatchFileSnapshot('../../../../packages/campaign/src/copy-keys.ts');
    expect(Object.keys(COPY_KEYS).length).toBe(keys.length);
  });
});
