import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import ar from '../../locales/ae-ar.json';
import english from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { etaText, roundEta } from './eta-text';

const i18n = i18next.createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: english }, ru: { translation: ru }, ar: { translation: ar } },
  interpolation: { escapeValue: false },
});

describe('the estimate as a person would say it', () => {
  it('a few seconds, then steps of 5 s to half a minute, of 10 s to a minute, then whole minutes', () => {
    expect([3, 9].map(roundEta)).toEqual([{ unit: 'fewSeconds' }, { unit: 'fewSeconds' }]);
    expect([10, 12, 13, 27, 33, 36, 54].map((s) => roundEta(s))).toEqual(
      [10, 10, 15, 25, 30, 40, 50].map((count) => ({ unit: 'seconds', count })),
    );
    expect([55, 89, 90, 150, 600].map((s) => roundEta(s))).toEqual(
      [1, 1, 2, 3, 10].map((count) => ({ unit: 'minutes', count })),
    );
  });

  it('reads in English, and in the plural forms of Russian and Arabic', () => {
    const en = i18n.getFixedT('en');
    expect(etaText(en, 41)).toBe('Your image will be ready in about 40 seconds.');
    expect(etaText(en, 70)).toBe('Your image will be ready in about a minute.');
    expect(etaText(en, 4)).toBe('Your image will be ready in a few seconds.');
    expect(etaText(en, null)).toBeNull();
    const russian = i18n.getFixedT('ru');
    expect(etaText(russian, 20)).toBe('Изображение будет готово примерно через 20 секунд.');
    expect(etaText(russian, 130)).toBe('Изображение будет готово примерно через 2 минуты.');
    const arabic = i18n.getFixedT('ar');
    expect(etaText(arabic, 180)).toBe('ستكون صورتك جاهزة خلال 3 دقائق تقريبًا.');
    expect(etaText(arabic, 20)).toBe('ستكون صورتك جاهزة خلال 20 ثانية تقريبًا.');
  });
});
