import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveLocaleFiles } from '../test/locale-files';
import { loadLocale } from './i18n';

beforeEach(() => {
  serveLocaleFiles();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** What a screen reader hears during the 3-2-1 countdown, and the note under the progress bar (20 s). */
async function counts(code: Parameters<typeof loadLocale>[0]) {
  const { t } = await loadLocale(code);
  return {
    countdown: [3, 2, 1].map((count) => t('photo.countdownLabel', { count })),
    note: t('result.creatingNote', { count: 20 }),
  };
}

describe('counts read in the language of the page', () => {
  it('English says "1 second", not "1 seconds"', async () => {
    expect(await counts('en')).toEqual({
      countdown: ['Photo in 3 seconds', 'Photo in 2 seconds', 'Photo in 1 second'],
      note: 'This can take up to 20 seconds.',
    });
  });

  it('Arabic uses its dual and its few/many forms (the code ae-ar is not the language "ae")', async () => {
    expect(await counts('ae-ar')).toEqual({
      countdown: ['ستُلتقط الصورة بعد 3 ثوانٍ', 'ستُلتقط الصورة بعد ثانيتين', 'ستُلتقط الصورة بعد ثانية واحدة'],
      note: 'قد يستغرق ذلك ما يصل إلى 20 ثانية.',
    });
  });

  it('Bosnian–Montenegrin follows Bosnian rules (the code bm is not Bambara)', async () => {
    expect(await counts('bm')).toEqual({
      countdown: ['Fotografija za 3 sekunde', 'Fotografija za 2 sekunde', 'Fotografija za 1 sekundu'],
      note: 'To može potrajati do 20 sekundi.',
    });
  });

  it('Russian for Kazakhstan follows Russian rules', async () => {
    expect(await counts('kz-ru')).toEqual({
      countdown: ['Снимок через 3 секунды', 'Снимок через 2 секунды', 'Снимок через 1 секунду'],
      note: 'Это может занять до 20 секунд.',
    });
  });

  it('Latvian puts 20 in its "zero" form', async () => {
    expect((await counts('lv')).note).toBe('Tas var ilgt līdz 20 sekundēm.');
  });
});
