import type { Plugin } from 'vite';

/**
 * Adds `<link rel="preload">` for the Latin subsets of the body and heading weights, the fonts the
 * first screen of most locales paints with. Cyrillic and Arabic are preloaded at run time by the app
 * once it knows the locale (src/lib/fonts.ts), so Latin pages do not pay for them.
 */
export function preloadLatinFonts(): Plugin {
  return {
    name: 'selfie-mosaic:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const files = Object.keys(context.bundle ?? {}).filter((name) =>
          /noto-sans-latin-(400|700)-normal-[\w-]+\.woff2$/.test(name),
        );
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
