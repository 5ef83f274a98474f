import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 },
});
