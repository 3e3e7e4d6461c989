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
 * The first snapshot comes once the stream runs and the next 30 s later (packages/cameras supervisor); the
 * cameras screen reads the list again every 60 s while a camera streams (features/cameras/api.ts), so each
 * new picture shows within about a minute.
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
      // Kept in the tab's session storage, so what one page load saw survives the next.
      await context.addInitScript(() => {
        const look = () => {
          if (!document.body?.textContent?.includes('Snapshot unavailable')) return;
          const seen = JSON.parse(sessionStorage.getItem('unavailableSeen') ?? '[]') as string[];
          seen.push(location.href);
          sessionStorage.setItem('unavailableSeen', JSON.stringify(seen));
        };
        new MutationObserver(look).observe(document, {
          childList: true,
          subtree: true,
          characterData: true,
        });
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

      // The server has the camera's first snapshot: the card shows it at the list's next read.
      await expect
        .poll(
          async () =>
            (
              await apiCall<{ data: { name: string; snapshot_url: string | null }[] }>(
                baseUrl,
                'GET',
                '/api/users/cameras',
                session,
              )
            ).data.find((c) => c.name === CAMERA)?.snapshot_url ?? null,
          { timeout: SNAPSHOT_TIMEOUT_MS, interval: 2_000 },
        )
        .not.toBeNull();
      // The list learns of a new stream snapshot only at its next read (no realtime message says so), so
      // the screen is opened again until the card shows a picture, then until it shows the next one.
      const picture = card.locator('img');
      const shownAfterReload = async () => {
        await page.reload();
        await card.waitFor();
        return picture.count();
      };
      await expect.poll(shownAfterReload, { timeout: SNAPSHOT_TIMEOUT_MS, interval: 2_000 }).toBe(1);
      const loaded = () =>
        picture.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.src : null));
      await expect.poll(loaded, { timeout: 60_000 }).not.toBeNull();
      const pathOf = (src: string) => new URL(src, baseUrl).pathname;
      const first = pathOf((await picture.getAttribute('src'))!);

      // The next snapshot replaces it (and the server removes older files): it loads in the same place.
      await expect
        .poll(
          async () => {
            await page.reload();
            await card.waitFor();
            if ((await picture.count()) === 0) return false;
            await expect.poll(loaded).not.toBeNull();
            const shown = await loaded();
            return shown !== null && pathOf(shown) !== first;
          },
          { timeout: SNAPSHOT_TIMEOUT_MS, interval: 2_000 },
        )
        .toBe(true);
      expect(await page.evaluate(() => sessionStorage.getItem('unavailableSeen'))).toBeNull();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
