import { defineConfig } from 'vitest/config';

/** Browser tests: the real server from `npm start`, driven through Chromium (scripts/chromium.mjs). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/chromium.ts', 'e2e/server.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
