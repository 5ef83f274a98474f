import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['source', 'module'], mainFields: ['module', 'main'] },
  define: { __BUILD_ID__: JSON.stringify('test-build') },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 20_000,
  },
});
