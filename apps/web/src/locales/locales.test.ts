import { getLocale, LOCALE_CODES, type LocaleCode } from '@selfie-mosaic/campaign';
import { API_ERRORS, CLIENT_ERRORS, MESSAGES, REFUSALS } from '@selfie-mosaic/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { mergeEnglish } from '../lib/i18n';
import { messageKeyOf } from '../lib/messages';
import english from './en.json';

type Tree = { [key: string]: string | Tree };

/** Every leaf as `section.key` → text. */
function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null) for (const entry of flatten(value, path)) entries.set(...entry);
    else entries.set(path, value);
  }
  return entries;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
/** Components such as the consent line's `<terms>…</terms>`: each language places them, none may drop one. */
const components = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();
const reference = flatten(mergeEnglish(english) as Tree);
const files = import.meta.glob<Tree>('./*.json', { eager: true, import: 'default' });
const fileOf = (code: string) => files[`./${code}.json`];

/** English-language locales may repeat the English copy; every other locale must translate it. */
const isEnglish = (code: LocaleCode) => new Intl.Locale(getLocale(code).tag).language === 'en';

/** i18next's plural suffixes: `key_one`, `key_few`… chosen by `Intl.PluralRules` of the locale's tag. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const pluralBase = (key: string) => key.replace(PLURAL_SUFFIX, '');
/** Keys English writes in plural forms: every language must write them in all of its own forms. */
const pluralKeys = new Set([...reference.keys()].filter((key) => PLURAL_SUFFIX.test(key)).map(pluralBase));
const pluralCategories = (code: LocaleCode) =>
  (new Intl.PluralRules(getLocale(code).tag).resolvedOptions().pluralCategories as string[]).toSorted();

/** What a locale's file must hold: English's plain keys, and each plural key in the language's own forms. */
function expectedKeys(code: LocaleCode): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [key, text] of reference) if (!PLURAL_SUFFIX.test(key)) expected.set(key, String(text));
  for (const base of pluralKeys) {
    const other = String(reference.get(`${base}_other`));
    for (const category of pluralCategories(code)) expected.set(`${base}_${category}`, other);
  }
  return expected;
}

function problemsOf(code: LocaleCode, translated: Map<string, unknown>): string[] {
  const problems: string[] = [];
  const expected = expectedKeys(code);
  for (const [key, english] of expected) {
    const text = translated.get(key);
    if (typeof text !== 'string' || !text.trim()) {
      problems.push(`${key}: missing or empty`);
      continue;
    }
    // A singular, dual or zero form may spell its number out ("one second", «ثانيتين»); `other` never does.
    const spelledOut = PLURAL_SUFFIX.test(key) && !key.endsWith('_other');
    const wanted = variables(english).filter((name) => !(spelledOut && name === 'count'));
    const found = variables(text).filter((name) => !(spelledOut && name === 'count'));
    if (JSON.stringify(found) !== JSON.stringify(wanted)) {
      problems.push(
        `${key}: interpolation variables ${found.join(',') || 'none'} instead of ${wanted.join(',') || 'none'}`,
      );
    }
    if (JSON.stringify(components(text)) !== JSON.stringify(components(english))) {
      problems.push(
        `${key}: components <${components(text).join('>, <')}> instead of <${components(english).join('>, <')}>`,
      );
    }
    if (!isEnglish(code) && english.split(/\s+/).length >= 4 && text === english) {
      problems.push(`${key}: still English`);
    }
  }
  for (const key of translated.keys()) {
    if (expected.has(key)) continue;
    if (pluralKeys.has(pluralBase(key)) && key !== pluralBase(key)) {
      problems.push(`${key}: ${getLocale(code).tag} has no "${PLURAL_SUFFIX.exec(key)?.[1]}" plural form`);
    } else if (pluralKeys.has(key)) {
      problems.push(`${key}: a count, so it takes plural forms (${pluralCategories(code).join(', ')})`);
    } else problems.push(`${key}: not a key of en`);
  }
  return problems;
}

describe.each(LOCALE_CODES.filter((code) => code !== 'en'))('locale %s', (code) => {
  it('has its file', () => {
    expect(fileOf(code), `apps/web/src/locales/${code}.json is missing`).toBeDefined();
  });

  it('has every key of en (messages and queue included) in its own plural forms, none empty, same interpolation variables', () => {
    expect(problemsOf(code, flatten(fileOf(code) ?? {}))).toEqual([]);
  });
});

describe('plural forms', () => {
  it('English writes every count in its own forms', () => {
    expect([...pluralKeys].sort()).toEqual([
      'handoff.invalidBody',
      'handoff.validity',
      'photo.countdownLabel',
      'result.creatingNote',
      'result.etaMinutes',
      'result.etaSeconds',
    ]);
    expect(problemsOf('en', reference)).toEqual([]);
  });

  it('follow the language of the locale, not the letters of its URL code', () => {
    expect(pluralCategories('ae-ar')).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    expect(pluralCategories('bm')).toEqual(['few', 'one', 'other']);
    expect(pluralCategories('kz-ru')).toEqual(['few', 'many', 'one', 'other']);
  });

  it('are refused where the language has no such form, and required where it has', () => {
    const russian = flatten(fileOf('ru') ?? {});
    const withoutFew = new Map([...russian].filter(([key]) => key !== 'photo.countdownLabel_few'));
    expect(problemsOf('ru', withoutFew)).toEqual(['photo.countdownLabel_few: missing or empty']);
    const turkish = new Map([...flatten(fileOf('tr') ?? {}), ['photo.countdownLabel_few', 'x']]);
    expect(problemsOf('tr', turkish)).toEqual(['photo.countdownLabel_few: tr has no "few" plural form']);
    const bare = new Map([...flatten(fileOf('tr') ?? {}), ['photo.countdownLabel', 'x']]);
    expect(problemsOf('tr', bare)).toEqual(['photo.countdownLabel: a count, so it takes plural forms (one, other)']);
  });

  it('a consent line without its link is refused', () => {
    const german = new Map([...flatten(fileOf('de') ?? {}), ['curious.agree', 'Ich akzeptiere die Bedingungen.']]);
    expect(problemsOf('de', german)).toEqual(['curious.agree: components <> instead of <terms>']);
  });
});

describe('English copy', () => {
  it('takes the visitor and queue messages from the contract, with i18next interpolation', () => {
    expect(reference.get('messages.cameraNotFound')).toBe('No camera found. Please ensure your device has a camera.');
    expect(reference.get('queue.position')).toBe('You are in queue position {{n}}');
    expect(reference.get('queue.heavyLoad')).toBe('Server is under heavy load, please wait...');
  });

  it('has no empty entry', () => {
    for (const [key, text] of reference) expect(String(text).trim(), key).not.toBe('');
  });
});

/**
 * Every failure a visitor can meet, by the code the app knows it by: each API error, each web-side
 * error (no answer, an answer without a code), each engine refusal, each visitor message (camera
 * errors among them). Read through i18next with no fallback, as the app reads it, so an entry that
 * nests another (`$t(messages.resultNotFound)`) must resolve too.
 */
const FAILURE_CODES = [
  ...Object.keys(API_ERRORS),
  ...Object.keys(CLIENT_ERRORS),
  ...Object.keys(REFUSALS),
  ...Object.keys(MESSAGES),
];

describe.each(LOCALE_CODES)('failures in %s', (code) => {
  const i18n = i18next.createInstance();
  void i18n.init({
    initAsync: false,
    lng: code,
    fallbackLng: false,
    lowerCaseLng: true,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    resources: { [code]: { translation: code === 'en' ? mergeEnglish(english) : (fileOf(code) ?? {}) } },
  });

  it.each(FAILURE_CODES)('%s has its own translation', (failure) => {
    const key = messageKeyOf(failure);
    const text = i18n.t(key);
    expect(text, `${code}: ${key} is missing`).not.toBe(key);
    expect(text.trim()).not.toBe('');
    expect(text, `${code}: ${key} nests a missing key`).not.toMatch(/\$t\(|^(messages|errors)\./);
    const englishText = String(reference.get(key));
    if (!isEnglish(code) && englishText.split(/\s+/).length >= 4) {
      expect(text, `${code}: ${key} is still English`).not.toBe(englishText);
    }
  });
});
