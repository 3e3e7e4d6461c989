import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  e2eServer,
  launch,
  MOBILE,
  openPage,
  signedInContext,
  verifiedUserViaApi,
  type ApiSession,
} from './browser';

const { baseUrl, dataDir, adminToken } = e2eServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The home sitter says something in the user's chat (as an alert does), published live by the server. */
async function agentMessage(session: ApiSession, text: string) {
  const res = await fetch(`${baseUrl}/api/admin/chat/agent-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ email: session.user.email, text }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

const messages = (page: Page) => page.getByTestId('chat-message');
const live = (page: Page) =>
  page.locator('[data-testid="connection-status"][data-state="connected"]', { hasText: 'Live' });

/** The main navigation's entry (the sidebar at desktop size); its name may carry a count ("Chat 1 new message"). */
const navTo = (page: Page, name: string) =>
  page
    .getByRole('navigation')
    .getByRole('link', { name: new RegExp(`^${name}( |$)`) })
    .first()
    .click();

describe('the chat over the signed-in session', () => {
  it('keeps every message and stays Live after Chat → Highlights → Chat while alerts arrive', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'roundtrip');
    await agentMessage(session, 'Good morning, all quiet at home.');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/chat`);
    await messages(page).filter({ hasText: 'Good morning, all quiet at home.' }).waitFor();
    await live(page).waitFor();

    for (const round of [1, 2, 3]) {
      await navTo(page, 'Highlights');
      await page.getByRole('heading', { name: 'Highlights', level: 1 }).waitFor();
      // The alert comes while the chat is not shown; the session's connection is still there to receive it.
      await agentMessage(session, `Alert ${round}: a person is at the front door.`);
      await navTo(page, 'Chat');
      await page.getByRole('heading', { name: 'Chat', exact: true }).waitFor();
      await messages(page)
        .filter({ hasText: `Alert ${round}: a person is at the front door.` })
        .waitFor();
      await live(page).waitFor();
      // And the chat is still live: the next alert shows up without a reload.
      await agentMessage(session, `Alert ${round}: they left a parcel.`);
      await messages(page)
        .filter({ hasText: `Alert ${round}: they left a parcel.` })
        .waitFor();
    }

    // Nothing lost, nothing twice: the greeting and two alerts per round.
    expect(await messages(page).count()).toBe(7);
    expect(await messages(page).filter({ hasText: 'Good morning, all quiet at home.' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fetches what was sent while the connection was lost, once it is back', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'reconnect');
    await agentMessage(session, 'Before the connection dropped.');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    // The hub's socket passes through the test, which can drop it as a lost network would.
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/realtime\/hub/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.goto(`${baseUrl}/chat`);
    await messages(page).filter({ hasText: 'Before the connection dropped.' }).waitFor();
    await live(page).waitFor();

    // Reconnecting is held at its token request until the message has been sent, so it is surely missed live.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/realtime/negotiate',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await sockets[0]!.close({ code: 4000, reason: 'network lost' });
    await page.locator('[data-testid="connection-status"][data-state="reconnecting"]').waitFor();
    await agentMessage(session, 'Sent while the connection was lost.');
    release();
    await live(page).waitFor();
    await messages(page).filter({ hasText: 'Sent while the connection was lost.' }).waitFor();
    expect(await messages(page).count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('scrolls a new message taller than the screen into view', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'tall');
    for (let i = 1; i <= 8; i++) await agentMessage(session, `Earlier message ${i}`);
    const context = await signedInContext(browser, session, MOBILE);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/chat`);
    await messages(page).filter({ hasText: 'Earlier message 8' }).waitFor();
    await live(page).waitFor();
    const scroller = page.getByTestId('chat-scroller');
    const fromBottom = () =>
      scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    await expect.poll(fromBottom).toBeLessThan(2);

    const lines = Array.from({ length: 80 }, (_, i) => `Line ${i + 1}: what the camera saw.`);
    await agentMessage(session, lines.join('\n'));
    const tall = messages(page).filter({ hasText: 'Line 80: what the camera saw.' });
    await tall.waitFor();
    const height = (await tall.boundingBox())!.height;
    expect(height).toBeGreaterThan(await scroller.evaluate((el) => el.clientHeight));
    // The newest message is followed to its end, as the user was reading at the bottom.
    await expect.poll(fromBottom).toBeLessThan(2);
    const box = (await scroller.boundingBox())!;
    const message = (await tall.boundingBox())!;
    expect(message.y + message.height).toBeLessThanOrEqual(box.y + box.height + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('scrolls an alert with pictures into view', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'pictures');
    for (let i = 1; i <= 8; i++) await agentMessage(session, `Earlier alert ${i}`);
    const context = await signedInContext(browser, session, MOBILE);
    const { page, errors } = await openPage(context);
    // An alert with pictures, as the hub delivers it: the test adds one frame to the real hub's socket.
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/realtime\/hub/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    const picture = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640"><rect width="640" height="640" fill="#456"/></svg>`;
    await page.route('**/e2e-pictures/*', (route) =>
      route.fulfill({ status: 200, contentType: 'image/svg+xml', body: picture }),
    );
    await page.goto(`${baseUrl}/chat`);
    await messages(page).filter({ hasText: 'Earlier alert 8' }).waitFor();
    await live(page).waitFor();
    const scroller = page.getByTestId('chat-scroller');
    const fromBottom = () =>
      scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    await expect.poll(fromBottom).toBeLessThan(2);

    const alert = {
      message_uuid: '7f0c1b9e-5a4e-4c37-9a57-3b2f1d6e8a01',
      date_time_utc: new Date().toISOString(),
      role: 'agent',
      text: 'Two people walked up to the front door.',
      image_urls: Array.from({ length: 12 }, (_, i) => `${baseUrl}/e2e-pictures/${i}.svg`),
      hidden_images: [],
      videos: [],
      source_activity_uuid_list: [],
      reply_to_message_uuid: null,
      reply_to_message: null,
    };
    sockets[0]!.send(`${JSON.stringify({ type: 1, target: 'ReceiveMessage', arguments: [alert] })}\u001e`);
    const shown = messages(page).filter({ hasText: 'Two people walked up to the front door.' });
    await shown.waitFor();
    expect((await shown.boundingBox())!.height).toBeGreaterThan(
      await scroller.evaluate((el) => el.clientHeight),
    );
    await expect.poll(fromBottom).toBeLessThan(2);
    const last = shown.locator('img').last();
    await expect
      .poll(() => last.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const box = (await scroller.boundingBox())!;
    const lastPicture = (await last.boundingBox())!;
    expect(lastPicture.y + lastPicture.height).toBeLessThanOrEqual(box.y + box.height + 1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
