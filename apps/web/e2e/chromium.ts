import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, describeChromium } from '../scripts/chromium.mjs';

/**
 * Launches the browser once before the server is built: a browser that cannot start fails the run in
 * seconds, the test files find it unpacked, and the log says which Chromium the suite ran in.
 */
export default async function setup() {
  const browser = await chromium.launch(await chromiumLaunchOptions());
  process.stderr.write(`Browser suite in ${describeChromium(browser)}\n`);
  await browser.close();
}
