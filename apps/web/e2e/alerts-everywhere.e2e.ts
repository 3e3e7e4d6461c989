import type { Browser, Locator, Page } from 'playwright-core';
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

const { baseUrl, dataDir, adminToken } = e2eServer();

const CAMERA = 'Porch';

/** The sizes the issue was found at (issue 31): a laptop and a phone. */
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const cameraUpload = (session: ApiSession) => cameraSnapshot(baseUrl, session, CAMERA);

/** The home sitter says something in the user's chat, published live by the server. */
async function agentMessage(session: ApiSession, text: string) {
  const res = await fetch(`${baseUrl}/api/admin/chat/agent-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ email: session.user.email, text }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function userWithCamera(label: string) {
  const session = await verifiedUserViaApi(baseUrl, dataDir, label);
  await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: CAMERA });
  return session;
}

const toast = (page: Page) => page.getByTestId('message-toast');
/** The Chat entry of whichever navigation the layout shows (sidebar or bottom bar). */
const chatEntry = (page: Page) =>
  page
    .getByRole('navigation')
    .getByRole('link', { name: /^Chat( |$)/ })
    .locator('visible=true')
    .first();
const camerasPulse = (page: Page) =>
  page.getByRole('navigation').locator('a[href="/cameras"] [data-pulse="true"]').locator('visible=true');

function intersects(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The toast's box overlaps none of these (a page's title, its banners). */
async function expectClearOf(shown: Locator, others: Locator[]) {
  // Where it stays, not where it slides in from.
  await shown
    .page()
    .waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    );
  const box = (await shown.boundingBox())!;
  for (const other of others) {
    for (const el of await other.all()) {
      const covered = await el.boundingBox();
      if (covered) expect(intersects(box, covered), `toast covers ${await el.textContent()}`).toBe(false);
    }
  }
}

describe('an alert reaches the user on every screen', () => {
  it(
    'on highlights at desktop size: a toast with the picture, a count on Chat, the cameras entry pulses; a tap opens it in the chat',
    { timeout: 120_000 },
    async () => {
      const session = await userWithCamera('alert-desktop');
      const context = await signedInContext(browser, session, DESKTOP);
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/highlights`);
      const title = page.getByRole('heading', { level: 1 });
      await title.first().waitFor();

      await cameraUpload(session);
      const shown = toast(page);
      await shown.waitFor({ timeout: 60_000 });
      await expect
        .poll(() =>
          shown.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        )
        .toBeGreaterThan(0);
      expect(await shown.textContent()).toContain(CAMERA);
      await expectClearOf(shown, [title]);
      await chatEntry(page)
        .and(page.getByRole('link', { name: 'Chat 1 new message' }))
        .waitFor();
      await camerasPulse(page).waitFor();

      // Two things new: the count says so.
      await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await agentMessage(session, 'The parcel is still at the door.');
      await page.getByRole('link', { name: 'Chat 2 new messages' }).first().waitFor();
      const second = toast(page).filter({ hasText: 'The parcel is still at the door.' });
      await second.waitFor();
      await expectClearOf(second, [page.getByRole('heading', { level: 1 })]);

      await second.click();
      await page.waitForURL('**/chat');
      const message = page
        .getByTestId('chat-message')
        .filter({ hasText: 'The parcel is still at the door.' });
      await message.waitFor();
      // Scrolled to and marked (for a moment) as the one the toast was about.
      await page
        .locator('[data-testid="chat-message"][data-highlighted="true"]', {
          hasText: 'The parcel is still at the door.',
        })
        .waitFor();
      await expect
        .poll(() =>
          message.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        )
        .toBe(true);
      // The chat was seen: the count is gone. Looking at the cameras ends the pulse.
      await page.getByRole('link', { name: 'Chat', exact: true }).first().waitFor();
      expect(await page.getByTestId('chat-unread').count()).toBe(0);
      await page.getByRole('navigation').getByRole('link', { name: 'Cameras', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Cameras', level: 1 }).waitFor();
      await expect.poll(() => camerasPulse(page).count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'on the cameras at phone size: the toast sits clear of the title, counts on the bottom bar and opens the alert in the chat',
    { timeout: 120_000 },
    async () => {
      const session = await userWithCamera('alert-phone');
      const context = await signedInContext(browser, session, PHONE);
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/cameras`);
      const title = page.getByRole('heading', { name: 'Cameras', level: 1 });
      await title.waitFor();

      await cameraUpload(session);
      const shown = toast(page);
      await shown.waitFor({ timeout: 60_000 });
      await shown.locator('img').waitFor();
      await expectClearOf(shown, [title, page.getByTestId('bottom-bar')]);
      await page.getByTestId('bottom-bar').getByRole('link', { name: 'Chat 1 new message' }).waitFor();

      await shown.tap();
      await page.waitForURL('**/chat');
      const alert = page.getByTestId('chat-message').filter({ has: page.locator('video, img') });
      await alert.first().waitFor();
      const box = (await alert.first().boundingBox())!;
      expect(box.y).toBeLessThan(844);
      expect(box.y + box.height).toBeGreaterThan(0);

      // The way out of the chat on a phone: the menu in its header.
      await page.getByTestId('chat-menu').tap();
      const panel = page.getByTestId('side-panel');
      await panel.getByRole('link', { name: 'Highlights', exact: true }).tap();
      await page.waitForURL('**/highlights');
      await page.getByTestId('bottom-bar').getByRole('link', { name: 'Chat', exact: true }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the chat on a phone', () => {
  it('has a way out: the menu in its header', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'chat-way-out');
    const context = await signedInContext(browser, session, PHONE);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/chat`);
    await page.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
    // The bottom bar makes room for the composer here.
    expect(await page.getByTestId('bottom-bar').count()).toBe(0);
    await page.getByRole('button', { name: 'Menu' }).tap();
    await page.getByTestId('side-panel').getByRole('link', { name: 'Memories', exact: true }).tap();
    await page.waitForURL('**/memories');
    await page.getByTestId('bottom-bar').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('toasts', () => {
  for (const [layout, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`never cover the page's title or its banners (${layout})`, async () => {
      const session = await verifiedUserViaApi(baseUrl, dataDir, `toast-${layout}`);
      const context = await signedInContext(browser, session, options);
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/settings`);
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      // Private mode shows a toast and a banner at the same moment.
      await page.getByRole('switch', { name: 'Private mode' }).click();
      await page.getByRole('button', { name: 'Turn on private mode' }).click();
      const shown = page.locator('[data-sonner-toast]', { hasText: 'Private mode enabled' });
      await shown.waitFor();
      const banners = page.getByRole('region', { name: 'Status banners' });
      await banners.getByText('Private mode is on').waitFor();
      await expectClearOf(shown, [page.getByRole('heading', { level: 1 }), banners]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
