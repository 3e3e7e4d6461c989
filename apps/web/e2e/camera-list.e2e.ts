import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  cameraSnapshot,
  e2eServer,
  launch,
  openPage,
  signedInContext,
  type ApiSession,
  verifiedUserViaApi,
} from './browser';

const { baseUrl, dataDir } = e2eServer();

const CAMERA = 'Porch';
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const KEYBOARD_STEPS = 'With a keyboard: focus the handle';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});

/** One user whose camera has had an event, made by the first test that needs it. */
let ready: Promise<ApiSession> | undefined;
function userWithActivity(): Promise<ApiSession> {
  ready ??= (async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'camera-list');
    await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: CAMERA });
    await cameraSnapshot(baseUrl, session, CAMERA);
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ data: { last_activity_date_time_utc: string | null }[] }>(
              baseUrl,
              'GET',
              '/api/users/cameras',
              session,
            )
          ).data[0]?.last_activity_date_time_utc ?? null,
        { timeout: 60_000, interval: 500 },
      )
      .not.toBe(null);
    return session;
  })();
  return ready;
}
afterAll(async () => {
  await browser?.close();
});

describe('the cameras list', () => {
  it("shows a card's last activity whole at desktop size, with the keyboard's drag steps", async () => {
    const context = await signedInContext(browser, await userWithActivity(), DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/cameras`);
    const time = page.getByText(/^Last activity /);
    await time.waitFor();
    // Not cut short with an ellipsis: everything it says fits in its box.
    expect(await time.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await time.textContent()).toMatch(/\d{1,2}:\d{2}/);
    await page.getByText(KEYBOARD_STEPS).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells a phone how to drag, without keyboard steps it has no keyboard for', async () => {
    const context = await signedInContext(browser, await userWithActivity(), PHONE);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/cameras`);
    await page.getByText('Drag a camera by its handle to move it to another property.').waitFor();
    expect(await page.getByText(KEYBOARD_STEPS).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
