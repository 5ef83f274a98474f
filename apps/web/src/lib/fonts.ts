import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/700.css';
import cyrillic400 from '@fontsource/noto-sans/files/noto-sans-cyrillic-400-normal.woff2?url';
import cyrillic700 from '@fontsource/noto-sans/files/noto-sans-cyrillic-700-normal.woff2?url';
import type { Locale } from '@selfie-mosaic/campaign';

/** Cyrillic files the first paint of these locales needs (Latin is preloaded by index.html). */
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

/** Script faces Noto Sans lacks, each a lazy module with its CSS, for the locales written in them. */
type ScriptFonts = () => Promise<{ fontFiles: string[] }>;
const ARABIC: ScriptFonts = () => import('./fonts-arabic');
const SCRIPT_FONTS: Partial<Record<string, ScriptFonts>> = {
  hy: () => import('./fonts-armenian'),
  ka: () => import('./fonts-georgian'),
};

/** Which lazy font module a locale needs, if any: Arabic for right-to-left, else by language. */
function scriptFontsFor(locale: Pick<Locale, 'code' | 'dir'>): ScriptFonts | undefined {
  return locale.dir === 'rtl' ? ARABIC : SCRIPT_FONTS[locale.code];
}

/** Starts the locale's script fonts early; Arabic, Armenian and Georgian faces only for their locales. */
export async function preloadFontsFor(locale: Locale): Promise<void> {
  if (CYRILLIC_LOCALES.has(locale.code)) {
    preload(cyrillic400);
    preload(cyrillic700);
  }
  const load = scriptFontsFor(locale);
  if (!load) return;
  const { fontFiles } = await load();
  for (const href of fontFiles) preload(href);
}
