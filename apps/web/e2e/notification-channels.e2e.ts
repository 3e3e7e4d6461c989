import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, e2eServer, launch, openPage, signedInContext, verifiedUserViaApi } from './browser';

const { baseUrl, dataDir } = e2eServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('notification switches say what this server and browser can deliver', () => {
  it('shows SMS/MMS off, and why, on a server without an SMS provider', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'channels-sms');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/settings/notifications`);
    await page.getByText('Texts cannot be sent: this server has no SMS provider set up.').waitFor();
    const sms = page.getByRole('switch', { name: 'SMS/MMS' });
    expect(await sms.getAttribute('aria-checked')).toBe('false');
    expect(await sms.isDisabled()).toBe(true);
    // Push can still go out, and its switch is on as the profile says.
    expect(await page.getByRole('switch', { name: 'Push notifications' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('does not claim alerts appear in this browser when subscribing failed', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'channels-push');
    const context = await signedInContext(browser, session, DESKTOP);
    // Headless Chromium answers every notification permission with "denied"; a user here had allowed them.
    await context.addInitScript(() =>
      Object.defineProperty(Notification, 'permission', { get: () => 'granted' }),
    );
    const { page } = await openPage(context);
    // The subscription cannot be made: the server's key does not come.
    await page.route('**/api/push/vapid-public-key', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto(`${baseUrl}/settings/notifications`);
    const row = page.getByTestId('browser-notifications');
    const status = row.getByRole('status');
    await expect
      .poll(() => status.textContent(), { timeout: 20_000 })
      .toBe('Alerts could not be set up in this browser, so none appear here.');
    expect(await row.getByText('Alerts appear in this browser.').count()).toBe(0);
    await row.getByRole('button', { name: 'Try again' }).waitFor();
    await context.close();
  });
});
