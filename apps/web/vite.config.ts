/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://localhost:8080';

/** The browser imports values from `@homesitter/contract/runtime` (no zod); types come from the root. */
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: {
      // ws: the realtime hub and the live view's socket go through the dev server too.
      '/api': { target: apiTarget, ws: true },
      '/healthz': apiTarget,
      '/.well-known': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // vitest runs one file at a time on 2 cores (cores - 1); most files wait on sockets, timers and child
    // processes, so two at a time keep both cores busy (npm test: docs/development.md, "Test suite time").
    maxWorkers: 2,
  },
});
