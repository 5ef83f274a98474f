import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: {
    include: ['src/**/*.test.ts'],
    // Scale-mode tests share one Redis and one PostgreSQL started for the run (src/test/services.ts).
    globalSetup: ['src/test/global-setup.ts'],
    // API tests start real servers with worker threads; the machine is shared, so keep files sequential.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
