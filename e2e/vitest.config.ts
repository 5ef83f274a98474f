import { defineConfig } from 'vitest/config';

/** Browser end-to-end specs: one real server for the run, one Chromium per spec file, run one at a time. */
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    include: ['specs/**/*.e2e.ts'],
    globalSetup: ['support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
