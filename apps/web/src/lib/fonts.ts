import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/700.css';
import cyrillic400 from '@fontsource/noto-sans/files/noto-sans-cyrillic-400-normal.woff2?url';
import cyrillic700 from '@fontsource/noto-sans/files/noto-sans-cyrillic-700-normal.woff2?url';
import type { Locale } from '@selfie-mosaic/campaign';

/** Arabic, Cyrillic and Latin files the first paint of a locale needs (Latin is preloaded by index.html). */
const CYRILLIC_LOCALES = new Set(['bg', 'kk', 'kz-ru', 'mk', 'ru']);

const preloaded = new Set<string>();

function preload(href: string): void {
  if (preloaded.has(href) || typeof document === 'undefined') return;
  preloaded.add(href);
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'font';
  link.type = 'font/woff2';
  link.href = href;
  link.crossOrigin = '';
  document.head.append(link);
}

/** Starts the locale's script fonts early; the Arabic face is only fetched for Arabic locales. */
export async function preloadFontsFor(locale: Locale): Promise<void> {
  if (CYRILLIC_LOCALES.has(locale.code)) {
    preload(cyrillic400);
    preload(cyrillic700);
  }
  if (locale.dir === 'rtl') {
    const { arabicFontFiles } = await import('./fonts-arabic');
    for (const href of arabicFontFiles) preload(href);
  }
}
