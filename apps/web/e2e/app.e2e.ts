import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  e2eServer,
  launch,
  MOBILE,
  openPage,
  PASSWORD,
  seriousViolations,
  signUpInBrowser,
  uniqueEmail,
  verifyByMail as followMailedLink,
} from './browser';

const { baseUrl, dataDir } = e2eServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signUp = (page: Page, email: string) => signUpInBrowser(page, baseUrl, email);

const verifyByMail = (page: Page, email: string) => followMailedLink(page, dataDir, email);

async function signIn(page: Page, email: string) {
  await page.getByTestId('auth-toggle').click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu').first().click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/auth');
}

describe('desktop', () => {
  const email = uniqueEmail('desk');

  it('signs up, follows the mailed verification link and lands on highlights with the 300px sidebar', async () => {
    const context = await browser.newContext(DESKTOP);
    const { page, errors } = await openPage(context);
    await signUp(page, email);
    await expect.poll(() => page.getByTestId('resend-verification').textContent()).toMatch(/Resend in \d+ s/);
    expect(await seriousViolations(page)).toEqual([]);
    await verifyByMail(page, email);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    expect((await sidebar.boundingBox())?.width).toBe(300);
    await page.getByText('v08.07.01').first().waitFor();
    expect(await page.getByTestId('bottom-bar').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs out and back in; a guarded deep link returns to its origin', async () => {
    const context = await browser.newContext(DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/auth`);
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, email);
    await page.waitForURL('**/highlights');
    await signOut(page);
    await page.goto(`${baseUrl}/settings/notifications`);
    await page.waitForURL('**/auth');
    await signIn(page, email);
    await page.waitForURL('**/settings/notifications');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches to German and back, private mode shows its banner, and a failing toggle reverts with its toast', async () => {
    const context = await browser.newContext(DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/auth`);
    await signIn(page, email);
    await page.waitForURL('**/highlights');
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Data privacy' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const selector = page.getByTestId('language-selector').first();
    await selector.click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await page.getByRole('heading', { name: 'Einstellungen' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('homesitter.language'))).toBe('de');
    await selector.click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();

    const privateMode = page.getByRole('switch', { name: 'Private mode' });
    await privateMode.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn on private mode' }).click();
    const banner = page.getByRole('button', { name: /Private mode is on/ });
    await banner.waitFor();
    expect(await privateMode.getAttribute('aria-checked')).toBe('true');
    await privateMode.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave private mode' }).click();
    await banner.waitFor({ state: 'detached' });

    await page.route('**/api/users/update-amnesia-mode', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'Failed to update amnesia mode', code: 'internal' }),
      }),
    );
    const amnesia = page.getByRole('switch', { name: 'Amnesia mode' });
    await amnesia.click();
    await page.getByText('Failed to update amnesia mode').waitFor();
    await expect.poll(() => amnesia.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('button', { name: /Amnesia mode is on/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('mobile 375×812', () => {
  it('shows the bottom bar and opens the side panel', async () => {
    const email = uniqueEmail('mobile');
    const context = await browser.newContext(MOBILE);
    const { page, errors } = await openPage(context);
    await signUp(page, email);
    await verifyByMail(page, email);
    const bar = page.getByTestId('bottom-bar');
    await bar.waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    expect((await bar.boundingBox())?.height).toBe(72);
    await bar.getByRole('button', { name: 'Menu' }).click();
    const panel = page.getByTestId('side-panel');
    await panel.waitFor();
    await panel.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await panel.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
