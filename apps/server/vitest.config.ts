import { defineConfig } from 'vitest/config';

/**
 * Files that must start from fresh modules: they replace a module with `vi.mock`, which a module already
 * loaded by an earlier file in the same worker would not see.
 */
const NEEDS_FRESH_MODULES = ['src/adapters/vision/local.vision.test.ts'];

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: NEEDS_FRESH_MODULES,
          // A worker keeps the modules it loaded for its next file: importing the server's module graph
          // afresh cost each of the ~140 files about a second of CPU. What a server holds hangs off
          // createServer (modules keep only caches, and a process-wide bound on image decoding), so files
          // still start from a server and database of their own.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'server-isolated', include: NEEDS_FRESH_MODULES } },
    ],
  },
});
