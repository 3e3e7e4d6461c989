import {
  publishScene,
  startRtspServer,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  e2eServer,
  launch,
  openPage,
  signedInContext,
  verifiedUserViaApi,
} from './browser';

/**
 * Issue 31 point 15: right after a stream camera connected, its card said "Snapshot unavailable" for seconds
 * (the first snapshot was replaced and its URL answered 404). Watched here from before the camera connects
 * until its first snapshot was replaced, by an observer in the page that records every appearance of the
 * words, however short (a screenshot at some moment could miss one).
 */
const { baseUrl, dataDir } = e2eServer();
const CAMERA = 'Driveway';
/**
 * The first snapshot comes once the stream runs and is announced at once (CamerasChanged); the next comes 30 s
 * later (packages/cameras supervisor) and shows at the screen's next read of the list, every 60 s while a
 * camera streams (features/cameras/api.ts): each new picture shows within about a minute and a half.
 */
const SNAPSHOT_TIMEOUT_MS = 150_000;

let browser: Browser;
let rtsp: RtspTestServer;
let publication: Publication;
beforeAll(async () => {
  rtsp = await startRtspServer();
  publication = await publishScene(rtsp.url('/driveway'), 'clock', { width: 320, height: 180, fps: 5 });
  await rtsp.waitForPublisher('/driveway');
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await publication?.stop();
  await rtsp?.close();
});

describe("a stream camera's card as it connects", () => {
  it(
    'never says "Snapshot unavailable" from connecting through its first snapshot being replaced',
    { timeout: SNAPSHOT_TIMEOUT_MS * 2 + 60_000 },
    async () => {
      const session = await verifiedUserViaApi(baseUrl, dataDir, 'snapshot-flash');
      const context = await signedInContext(browser, session, DESKTOP);
      // Installed before the app's own scripts run, so no appearance is missed however short.
      await context.addInitScript(() => {
        const seen: string[] = [];
        Object.assign(window, { unavailableSeen: seen });
        new MutationObserver(() => {
          if (document.body?.textContent?.includes('Snapshot unavailable')) seen.push(location.href);
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      // Added just before the screen opens: it connects while the card is watched.
      await apiCall(baseUrl, 'POST', '/api/users/cameras', session, {
        name: CAMERA,
        connection: { type: 'rtsp', url: rtsp.url('/driveway') },
      });
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/cameras`);
      const card = page.locator(`[data-testid="camera-card"][data-camera="${CAMERA}"]`);
      await card.waitFor();

      // The same page throughout, never reloaded: the first picture arrives by realtime, the next with the
      // list's next read.
      const picture = card.locator('img');
      const pathOf = (src: string) => new URL(src, baseUrl).pathname;
      const shown = async () => {
        if ((await picture.count()) === 0) return null;
        const src = await picture.evaluate((img: HTMLImageElement) =>
          img.complete && img.naturalWidth > 0 ? img.src : null,
        );
        return src === null ? null : pathOf(src);
      };
      let first: string | null = null;
      await expect
        .poll(async () => (first = await shown()), { timeout: SNAPSHOT_TIMEOUT_MS, interval: 500 })
        .not.toBeNull();
      // The next snapshot replaces it (and the server removes older files): it loads in the same place.
      await expect
        .poll(async () => ((await shown()) ?? first) !== first, {
          timeout: SNAPSHOT_TIMEOUT_MS,
          interval: 500,
        })
        .toBe(true);
      expect(
        await page.evaluate(() => (window as unknown as { unavailableSeen: string[] }).unavailableSeen),
      ).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
