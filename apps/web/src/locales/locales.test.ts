import { LOCALE_CODES } from '@selfie-mosaic/campaign';
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

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const reference = flatten(mergeEnglish(english) as Tree);
const files = import.meta.glob<Tree>('./*.json', { eager: true, import: 'default' });
const fileOf = (code: string) => files[`./${code}.json`];

/** English-language locales may repeat the English copy; every other locale must translate it. */
const ENGLISH_LOCALES = new Set(['en', 'jo-en']);

describe.each(LOCALE_CODES.filter((code) => code !== 'en'))('locale %s', (code) => {
  it('has its file', () => {
    expect(fileOf(code), `apps/web/src/locales/${code}.json is missing`).toBeDefined();
  });

  it('has every key of en (messages and queue included), none empty, with the same placeholders', () => {
    const translated = flatten(fileOf(code) ?? {});
    const problems: string[] = [];
    for (const [key, english] of reference) {
      const text = translated.get(key);
      if (typeof text !== 'string' || !text.trim()) {
        problems.push(`${key}: missing or empty`);
        continue;
      }
      const expected = placeholders(String(english));
      if (JSON.stringify(placeholders(text)) !== JSON.stringify(expected)) {
        problems.push(
          `${key}: placeholders ${placeholders(text).join(',') || 'none'} instead of ${expected.join(',') || 'none'}`,
        );
      }
      const englishText = String(english);
      if (!ENGLISH_LOCALES.has(code) && englishText.split(/\s+/).length >= 4 && text === englishText) {
        problems.push(`${key}: still English`);
      }
    }
    for (const key of translated.keys()) if (!reference.has(key)) problems.push(`${key}: not a key of en`);
    expect(problems).toEqual([]);
  });
});

describe('English copy', () => {
  it('takes the SPEC §8 and queue messages from the contract, with i18next placeholders', () => {
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
 * error (no answer, an answer without a code), each engine refusal, each SPEC §8 message (camera
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
    if (!ENGLISH_LOCALES.has(code) && englishText.split(/\s+/).length >= 4) {
      expect(text, `${code}: ${key} is still English`).not.toBe(englishText);
    }
  });
});
