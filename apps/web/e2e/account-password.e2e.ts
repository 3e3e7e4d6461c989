import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  e2eServer,
  launch,
  openPage,
  PASSWORD,
  signedInContext,
  verifiedUserViaApi,
} from './browser';

const { baseUrl, dataDir } = e2eServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signIn = (email: string, password: string) =>
  fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('Account: change the password', () => {
  it('refuses a wrong current password, then changes it and stays signed in', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'password');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/settings/account`);
    await page.getByRole('heading', { name: 'Password', level: 2 }).waitFor();
    const button = page.getByRole('button', { name: 'Change password' });

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('short');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('New password').fill('a much longer password');
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'The current password is not right.' }).waitFor();
    expect((await signIn(session.user.email, PASSWORD)).status).toBe(200);

    await page.getByLabel('Current password').fill(PASSWORD);
    await button.click();
    await page.getByText('Password changed. Other devices are signed out.').waitFor();
    expect((await signIn(session.user.email, PASSWORD)).status).toBe(401);
    expect((await signIn(session.user.email, 'a much longer password')).status).toBe(200);
    // This tab goes on with the new session.
    await page.reload();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
