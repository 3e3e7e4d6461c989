import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions, describeChromium } from '../scripts/chromium.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's one browser, which each test file connects to (`launch` in e2e/browser.ts). */
    browserEndpoint: string;
  }
}

/**
 * Launches the one browser of the suite before the server is built: a browser that cannot start fails the run
 * in seconds, and the log says which Chromium the suite ran in. Test files connect to it instead of starting
 * their own (seconds each on a busy 2-core machine) and keep apart in browser contexts of their own.
 */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(await chromiumLaunchOptions());
  const browser = await chromium.connect(server.wsEndpoint());
  process.stderr.write(`Browser suite in ${describeChromium(browser)}\n`);
  await browser.close();
  project.provide('browserEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
