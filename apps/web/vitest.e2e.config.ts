import { defineConfig } from 'vitest/config';

/** Browser tests: the real server from `npm start`, driven through Chromium (scripts/chromium.mjs). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/chromium.ts', 'e2e/server.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // Two files at a time, each worker against a server of its own (e2e/server.ts) and the one browser.
    maxWorkers: 2,
    sequence: { concurrent: false },
  },
});
