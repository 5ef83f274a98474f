import type { Alias, UserConfig } from 'vite';

/**
 * The app is written against React's API and runs on Preact through preact/compat: the same hooks,
 * `use`, `lazy` and `Suspense`, react-router and Testing Library unchanged, for about a sixth of
 * react-dom's weight on the start screen. Exact-match aliases, most specific first, so
 * `react-dom/client` does not fall into the `react-dom` rule. Shared by the build and the unit tests,
 * so the tests run against what ships.
 */
export const preactAliases: Alias[] = [
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/** JSX compiles straight to Preact's runtime (no React plugin, whose fast refresh is React-only). */
export const preactJsx: UserConfig['oxc'] = {
  jsx: { runtime: 'automatic', importSource: 'preact' },
};
