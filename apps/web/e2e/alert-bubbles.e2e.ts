import { ACTIVITY_GROUPING_SECONDS, type Activity } from '@homesitter/contract';
import { testMedia } from '@homesitter/cameras/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  cameraSnapshot,
  DESKTOP,
  e2eServer,
  launch,
  openPage,
  signedInContext,
  verifiedUserViaApi,
  type ApiSession,
} from './browser';

/**
 * Alert bubbles as they live in the chat (issue 31): they read in the language the user reads now (point 11),
 * and one an event joined takes that event's time and moves to the bottom (point 12), live and after a reload.
 */
const { baseUrl, dataDir } = e2eServer();
const CAMERA = 'Porch';
/** The AI's look at an upload, then the alert (1-3 s here, longer on a loaded machine). */
const ALERT_TIMEOUT_MS = 90_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function userWithCamera(label: string): Promise<ApiSession> {
  const session = await verifiedUserViaApi(baseUrl, dataDir, label);
  await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: CAMERA });
  return session;
}

const messages = (page: Page) => page.getByTestId('chat-message');
/** The alert: the one message with pictures of the camera's events. */
const alertBubble = (page: Page) => messages(page).filter({ has: page.locator('figure') });
const textOf = (bubble: Locator) => bubble.locator('p.whitespace-pre-wrap').first().textContent();

/** Where each message sits in the chat, top to bottom, by its id, with the time it shows. */
const order = (page: Page) =>
  messages(page).evaluateAll((items) =>
    items.map((li) => ({ id: li.id, time: li.querySelector('time')?.getAttribute('datetime') ?? null })),
  );

describe('alert bubbles', () => {
  it(
    "read in the user's language after a switch: sent in English, shown in German",
    { timeout: ALERT_TIMEOUT_MS * 2 },
    async () => {
      const session = await userWithCamera('alert-language');
      const context = await signedInContext(browser, session, DESKTOP);
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/chat`);
      await page.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
      await cameraSnapshot(baseUrl, session, CAMERA);
      await alertBubble(page).waitFor({ timeout: ALERT_TIMEOUT_MS });
      const english = await textOf(alertBubble(page));
      expect(english).toContain(CAMERA);

      // Switched in the settings, then back to the chat without a reload.
      await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).first().click();
      await page.getByTestId('language-selector').first().click();
      await page.getByRole('menuitem', { name: 'Deutsch' }).click();
      await page.getByRole('button', { name: 'Bestätigen' }).click();
      await page.getByRole('heading', { name: 'Einstellungen' }).waitFor();
      const { data: events } = await apiCall<{ data: Activity[] }>(
        baseUrl,
        'GET',
        '/api/users/activities',
        session,
      );
      const german = events[0]!.activity_description_in_preferred_language!;
      expect(german).not.toBe(english);
      await page.getByRole('navigation').getByRole('link', { name: /^Chat/ }).first().click();
      await page.waitForURL('**/chat');
      await expect.poll(() => textOf(alertBubble(page))).toBe(german);
      // And so it stays after a reload.
      await page.reload();
      await expect.poll(() => textOf(alertBubble(page))).toBe(german);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'joined by a newer event, takes its time and moves below what was said since, live and after a reload',
    { timeout: ALERT_TIMEOUT_MS * 3 },
    async () => {
      const session = await userWithCamera('alert-coalesced');
      const context = await signedInContext(browser, session, DESKTOP);
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/chat`);
      await page.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
      await cameraSnapshot(baseUrl, session, CAMERA);
      const alert = alertBubble(page);
      await alert.waitFor({ timeout: ALERT_TIMEOUT_MS });
      const alertId = await alert.getAttribute('id');
      const firstTime = await alert.locator('time').getAttribute('datetime');

      await page.getByLabel('Message', { exact: true }).fill('Thanks, I saw it.');
      await page.getByRole('button', { name: 'Send message' }).click();
      const mine = messages(page)
        .filter({ hasText: 'Thanks, I saw it.' })
        .and(page.locator(':not([data-pending])'));
      await mine.locator('time').waitFor();
      const mineId = await mine.getAttribute('id');

      // A second picture of the same camera within the minute: it joins the alert (a different file, since
      // the ingest takes a file sent again only once). Sent once the first event's grouping window is over, so
      // it is an event of its own, not more files of the first one.
      const { data: events } = await apiCall<{ data: Activity[] }>(
        baseUrl,
        'GET',
        '/api/users/activities',
        session,
      );
      const grouped = Date.parse(events[0]!.date_time_utc) + (ACTIVITY_GROUPING_SECONDS + 1) * 1000;
      if (grouped > Date.now()) await new Promise((r) => setTimeout(r, grouped - Date.now()));
      await cameraSnapshot(baseUrl, session, CAMERA, testMedia('person-obama-3.jpg'));
      await alert.locator('figure').nth(1).waitFor({ timeout: ALERT_TIMEOUT_MS });
      expect(await alertBubble(page).count()).toBe(1);

      const expectBelow = async () => {
        const list = await order(page);
        const at = (id: string | null) => list.findIndex((m) => m.id === id);
        expect(at(alertId)).toBeGreaterThan(at(mineId));
        const joined = list[at(alertId)]!.time!;
        expect(Date.parse(joined)).toBeGreaterThan(Date.parse(firstTime!));
        expect(Date.parse(joined)).toBeGreaterThanOrEqual(Date.parse(list[at(mineId)]!.time!));
      };
      const moved = async () => {
        const ids = (await order(page)).map((m) => m.id);
        return ids.indexOf(alertId!) > ids.indexOf(mineId!);
      };
      await expect.poll(moved).toBe(true);
      await expectBelow();
      await page.reload();
      await alert.locator('figure').nth(1).waitFor();
      await mine.waitFor();
      await expectBelow();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
