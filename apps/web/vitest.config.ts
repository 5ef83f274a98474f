import { defineProject } from 'vitest/config';
import { preactAliases, preactJsx } from './build/preact';

export default defineProject({
  resolve: { conditions: ['source', 'module'], alias: preactAliases, mainFields: ['module', 'main'] },
  oxc: preactJsx,
  define: { __BUILD_ID__: JSON.stringify('test-build') },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 20_000,
    // Libraries written for React go through the aliases too, instead of loading react-dom from node_modules.
    server: { deps: { inline: ['react-router', 'react-i18next', '@testing-library/react'] } },
  },
});
