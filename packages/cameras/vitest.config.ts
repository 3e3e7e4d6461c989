import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest runs one file at a time on 2 cores (cores - 1); most files wait on sockets, timers and child
    // processes, so two at a time keep both cores busy (npm test: docs/development.md, "Test suite time").
    maxWorkers: 2,
  },
});
