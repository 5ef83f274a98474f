import { describe, expect, it } from 'vitest';
import { marketForLocale, matchBrowserLanguage, resolveLocale } from './locale';

describe('resolveLocale: route → cookie → browser languages → en', () => {
  it('takes the route first', () => {
    expect(resolveLocale({ route: 'de', cookie: 'fr', languages: ['it'] })).toBe('de');
  });

  it('then the locale cookie', () => {
    expect(resolveLocale({ route: undefined, cookie: 'fr', languages: ['it'] })).toBe('fr');
    expect(resolveLocale({ route: 'xx', cookie: 'fr', languages: ['it'] })).toBe('fr');
  });

  it('then the browser languages, in order', () => {
    expect(resolveLocale({ cookie: null, languages: ['xx-YY', 'it-IT', 'de'] })).toBe('it');
    expect(resolveLocale({ cookie: 'not-a-locale', languages: ['pl'] })).toBe('pl');
  });

  it('then English', () => {
    expect(resolveLocale({ cookie: null, languages: ['ja-JP'] })).toBe('en');
    expect(resolveLocale({})).toBe('en');
  });

  it('stays within a market when given its locales', () => {
    expect(resolveLocale({ cookie: 'fr', languages: ['de'] }, ['kk', 'kz-ru'])).toBe('kk');
    expect(resolveLocale({ cookie: null, languages: ['ru-RU'] }, ['kk', 'kz-ru'])).toBe('kz-ru');
    expect(resolveLocale({ cookie: null, languages: ['ja'] }, ['de', 'en'])).toBe('en');
  });
});

describe('matchBrowserLanguage', () => {
  const all = ['ae-ar', 'eg-ar', 'en', 'jo-en', 'jo-ar', 'ru', 'kz-ru', 'bm', 'hr'] as const;
  it('matches the exact tag, then the language without a region', () => {
    expect(matchBrowserLanguage('ar-EG', all)).toBe('eg-ar');
    expect(matchBrowserLanguage('en-JO', all)).toBe('jo-en');
    expect(matchBrowserLanguage('en-US', all)).toBe('en');
    expect(matchBrowserLanguage('ru-KZ', all)).toBe('kz-ru');
    expect(matchBrowserLanguage('ru-BY', all)).toBe('ru');
    expect(matchBrowserLanguage('ar', all)).toBe('ae-ar');
  });

  it('reads Bosnian, Montenegrin and Serbian Latin as bm', () => {
    expect(matchBrowserLanguage('bs-BA', all)).toBe('bm');
    expect(matchBrowserLanguage('cnr', all)).toBe('bm');
    expect(matchBrowserLanguage('sr-Latn', all)).toBe('bm');
  });
});

describe('marketForLocale', () => {
  it('uses the locale’s own country, then a browser region, then the main market', () => {
    expect(marketForLocale('ae-ar').country).toBe('ae');
    expect(marketForLocale('de', ['de-AT']).country).toBe('at');
    expect(marketForLocale('de', ['de-DE']).country).toBe('de');
    expect(marketForLocale('de').country).toBe('de');
    expect(marketForLocale('en').country).toBe('gb');
    expect(marketForLocale('ka').country).toBe('ge');
  });
});
