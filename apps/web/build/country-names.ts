import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { COUNTRIES, getLocale, type LocaleCode } from '@selfie-mosaic/campaign';

/** Country code (lower case, as in URLs) → the country's name in one locale's language. */
export type CountryNames = Record<string, string>;

/**
 * The CLDR locale whose names a locale's copy uses. Browsers lack names for several of our languages
 * (Georgian, Kazakh, Macedonian…), so the app ships Unicode CLDR's own instead. The script is named
 * where a language has more than one, so a change of CLDR's default could never turn the copy Cyrillic.
 */
const CLDR_LOCALE: Partial<Record<LocaleCode, string>> = { bm: 'bs-Latn', uz: 'uz-Latn' };

const require = createRequire(import.meta.url);

function territories(cldrLocale: string): Record<string, string> | undefined {
  let path: string;
  try {
    path = require.resolve(`cldr-localenames-full/main/${cldrLocale}/territories.json`);
  } catch {
    return undefined;
  }
  const data = JSON.parse(readFileSync(path, 'utf8'));
  return data.main[cldrLocale].localeDisplayNames.territories;
}

/** CLDR's most specific data for the locale: `ar-AE`, else `ar` (CLDR's files are already resolved). */
function cldrTerritories(code: LocaleCode): Record<string, string> {
  const { tag } = getLocale(code);
  const candidates = [CLDR_LOCALE[code], tag, tag.split('-')[0]].filter((id): id is string => !!id);
  for (const id of candidates) {
    const names = territories(id);
    if (names) return names;
  }
  throw new Error(`Expected CLDR names for locale ${code} but received none for ${candidates.join(', ')}`);
}

/**
 * The copy puts an English name after "in": "in the United Kingdom". Names that are a union, a kingdom,
 * a republic or a plural take "the"; CLDR lists names for menus, without it.
 */
const TAKES_THE = /\b(United|Kingdom|Republic|Emirates|States|Islands|Federation|Netherlands|Philippines)\b/;

/** CLDR writes "&" in names for menus ("Bosnia & Herzegovina"); a sentence spells it out. */
function inProse(name: string, language: string): string {
  if (language !== 'en') return name;
  const spelled = name.replaceAll(' & ', ' and ');
  return TAKES_THE.test(spelled) ? `the ${spelled}` : spelled;
}

/**
 * The names a locale's copy inserts: every country a campaign may run in, since the campaign file (read at run time)
 * may offer any locale in any of them.
 */
export function countryNamesFor(code: LocaleCode): CountryNames {
  const names = cldrTerritories(code);
  const language = getLocale(code).tag.split('-')[0] ?? '';
  const entries = COUNTRIES.map((country) => {
    const name = names[country.toUpperCase()];
    if (!name) throw new Error(`Expected a CLDR name for ${country} in ${code} but received none`);
    return [country, inProse(name, language)] as const;
  });
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
