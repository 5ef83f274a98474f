import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: {
    include: ['src/**/*.test.ts'],
    // API tests start real servers with worker threads; the machine is shared, so keep files sequential.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
