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
    // expect.poll waits for what the page will show, which takes longer on a loaded machine (two files at
    // once); its default of 1 s made a deadline of it. Playwright's own waits give 30 s too.
    expect: { poll: { timeout: 30_000 } },
  },
});
