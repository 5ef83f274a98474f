import { getLocale } from '@selfie-mosaic/campaign';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadFontsFor } from './fonts';

function preloadedFonts(): string[] {
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')].map(
    (link) => link.getAttribute('href') ?? '',
  );
}

afterEach(() => {
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
});

describe('script fonts per locale', () => {
  it('preloads nothing extra for a Latin locale', async () => {
    await preloadFontsFor(getLocale('de'));
    expect(preloadedFonts()).toEqual([]);
  });

  it.each([
    ['hy', /noto-sans-armenian-armenian-(400|700)-normal/],
    ['ka', /noto-sans-georgian-georgian-(400|700)-normal/],
    ['ae-ar', /noto-sans-arabic-arabic-(400|700)-normal/],
    ['ru', /noto-sans-cyrillic-(400|700)-normal/],
  ] as const)('preloads the regular and bold face of its script for %s, and only those', async (code, file) => {
    await preloadFontsFor(getLocale(code));
    const fonts = preloadedFonts();
    expect(fonts).toHaveLength(2);
    for (const href of fonts) expect(href).toMatch(file);
  });
});
