import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, e2eServer, launch, openPage, signedInContext, verifiedUserViaApi } from './browser';
import { E2E_NEST_CAMERA } from './server';

/**
 * A Nest doorbell that streams only over WebRTC, in a real browser: linked through Google's consent page (the
 * suite's fake Google, server/test/fake-google.ts), then its live view. The player's offer goes to the
 * server and on to Google, whose camera peer (werift, sending ffmpeg's test pattern as VP8 on 127.0.0.1)
 * answers; the browser plays it directly. The fake refuses an offer without audio, video and a data channel
 * in that order, as Google does.
 */
const { baseUrl, dataDir } = e2eServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('a Nest WebRTC camera', () => {
  it('is linked through Google and plays live in the browser', { timeout: 120_000 }, async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'nest-live');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);

    // As an owner finds it: camera setup, then the Nest way of adding cameras, then Google.
    await page.goto(`${baseUrl}/settings/camera-setup`);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // Google's consent page sends the browser back to the server, which lands on the cameras page.
    await page.waitForURL(/\/cameras\?/);
    await page.locator(`[data-testid="camera-card"][data-camera="${E2E_NEST_CAMERA}"]`).waitFor();

    await page.goto(`${baseUrl}/cameras/${encodeURIComponent(E2E_NEST_CAMERA)}/view`);
    await page.waitForFunction(
      () => {
        const video = document.querySelector('video');
        return !!video && video.readyState >= 2 && video.videoWidth === 320 && !video.paused;
      },
      undefined,
      { timeout: 60_000 },
    );
    // It goes on playing: the picture advances.
    const at = () => page.evaluate(() => document.querySelector('video')!.currentTime);
    const first = await at();
    await expect.poll(at, { timeout: 30_000 }).toBeGreaterThan(first + 0.5);
    expect(errors).toEqual([]);
    await context.close();
  });
});
