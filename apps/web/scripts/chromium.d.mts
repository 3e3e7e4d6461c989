import type { Browser, LaunchOptions } from 'playwright-core';

/** Playwright's launch options for `CHROMIUM_PATH`, else the @sparticuz/chromium build (see chromium.mjs). */
export function chromiumLaunchOptions(): Promise<LaunchOptions>;

/** One line for logs: which Chromium runs and where it came from. */
export function describeChromium(browser: Browser): string;
