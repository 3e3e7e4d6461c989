import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest runs one file at a time on 2 cores (cores - 1); most files wait on sockets, timers and child
    // processes, so two at a time keep both cores busy (npm test: docs/development.md, "Test suite time").
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    // Servers the tests start as processes inherit this: a busy shared machine must not make them shed the
    // tests' own calls (load shedding is tested with injected pressure).
    env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
  },
});
