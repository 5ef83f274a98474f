import type { Plugin } from 'vite';

type Bundle = Record<string, { type: string; fileName: string; name?: string; facadeModuleId?: string | null }>;

/** The chunks every first visit needs besides the entry: the start screen's and i18next's. */
export function firstScreenChunks(bundle: Bundle): string[] {
  return Object.values(bundle)
    .filter(
      (file) =>
        file.type === 'chunk' &&
        (/features\/age-gate\/StartScreen\.tsx$/.test(file.facadeModuleId ?? '') || file.name === 'i18next'),
    )
    .map((file) => `/${file.fileName}`);
}

/**
 * Most visits begin on the start screen. Its chunk and i18next's are lazy imports the entry script only
 * asks for once it has run; `modulepreload` links in index.html fetch them alongside it instead, one
 * round trip fewer before the first paint on a slow network.
 */
export function preloadFirstScreen(): Plugin {
  return {
    name: 'selfie-mosaic:preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        return firstScreenChunks((context.bundle ?? {}) as Bundle).map((href) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
