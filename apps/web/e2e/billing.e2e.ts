import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  e2eServer,
  launch,
  MOBILE,
  openPage,
  seriousViolations,
  signUpInBrowser,
  uniqueEmail,
  verifyByMail,
} from './browser';

// Paid plans (issue 18) against the fake Stripe the global setup starts (apps/server/test/fake-stripe.ts):
// its hosted Checkout page has a Pay button that completes the session, sends the webhooks and returns to
// /subscription/success.

const { baseUrl, dataDir, adminToken } = e2eServer();

let browser: Browser;
let page: Page;
let errors: string[];
const email = uniqueEmail('billing');

async function setFreeEvents(remaining: number) {
  const response = await fetch(`${baseUrl}/api/admin/free-events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, remaining_free_events: remaining }),
  });
  expect(response.status).toBe(200);
}

const banners = () => page.getByRole('region', { name: 'Status banners' });

beforeAll(async () => {
  browser = await launch();
  ({ page, errors } = await openPage(await browser.newContext(DESKTOP)));
});
afterAll(async () => {
  await browser?.close();
});

describe('paid plans', () => {
  it('signs up a verified user with one free event left', async () => {
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);
    await setFreeEvents(1);
  });

  it('shows the free-events banner, which leads to the plans', async () => {
    await page.goto(`${baseUrl}/highlights`);
    const banner = banners().getByRole('button', { name: '1 free event left. Choose a plan' });
    await banner.click();
    await page.waitForURL('**/settings/account/change-plan');
    await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
    await page.getByRole('radio', { name: /Monthly/ }).waitFor();
    await page.getByRole('radio', { name: /Yearly/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('subscribes through hosted Checkout and sees the success screen', async () => {
    await page.getByRole('radio', { name: /Monthly/ }).check();
    await page.getByRole('button', { name: 'Continue to secure checkout' }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/subscription\/success\?session_id=/);
    await page.getByText('Thank you! Your Monthly plan is active.').waitFor({ timeout: 40_000 });
    await expect.poll(() => banners().count()).toBe(0);
  });

  it('shows the active plan in settings', async () => {
    await page.goto(`${baseUrl}/settings/account/change-plan`);
    const plan = page.getByRole('region', { name: 'Your plan' });
    await plan.getByText('Active').waitFor();
    await plan.getByText('Next payment').waitFor();
    // The other plan is offered as a switch; the current one is marked.
    await page.getByRole('button', { name: 'Switch to yearly billing' }).waitFor();
    await page.getByRole('radio', { name: /Monthly.*Current plan/ }).check();
    await page.getByText('This is your current plan').waitFor();
  });

  it('cancels with the refund shown first, then confirmed', async () => {
    await page.getByRole('link', { name: 'Cancel subscription' }).click();
    await page.waitForURL('**/settings/account/cancel');
    const refund = page.getByRole('region', { name: 'Cancel subscription' }).getByRole('definition');
    await refund.waitFor();
    const amount = (await refund.textContent())?.trim() ?? '';
    expect(amount).toMatch(/^\$\d+\.\d{2}$/);
    await page.getByRole('button', { name: 'Cancel subscription now' }).click();
    await page.getByText(/^Your subscription is cancelled\. \$\d+\.\d{2} has been refunded\.$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the ended plan and the banner again, on a phone too', async () => {
    await page.setViewportSize(MOBILE.viewport);
    await page.goto(`${baseUrl}/settings/account/change-plan`);
    const plan = page.getByRole('region', { name: 'Your plan' });
    await plan.getByText('Cancelled').waitFor();
    await plan.getByText('Ended on').waitFor();
    await banners()
      .getByRole('button', { name: /free events? left/ })
      .waitFor();
    await page.getByRole('button', { name: 'Continue to secure checkout' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
