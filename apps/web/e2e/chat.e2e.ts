import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launch, mailedLink, MOBILE, openPage, signedInContext, uniqueEmail } from './browser';

const { baseUrl, dataDir, adminToken } = e2eServer();
const PASSWORD = 'correct horse battery';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

interface Session {
  idToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { uid: string; email: string; emailVerified: boolean; verificationExempt: boolean };
}

async function post<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A verified user with a profile, made through the API (the sign-up screens have their own tests). */
async function verifiedUser(label: string): Promise<Session> {
  const email = uniqueEmail(label);
  const first = await post<Session>('/api/auth/sign-up', { email, password: PASSWORD });
  const code = new URL(await mailedLink(dataDir, email, 'verify-email')).searchParams.get('code');
  await post('/api/auth/verify-email', { code });
  const session = await post<Session>('/api/auth/token', { refreshToken: first.refreshToken });
  await post('/api/users', { timezone: 'Europe/Berlin' }, { authorization: `Bearer ${session.idToken}` });
  return session;
}

async function openChat(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(context);
  await opened.page.goto(`${baseUrl}/chat`);
  await opened.page.getByRole('heading', { name: 'Chat', exact: true }).waitFor();
  await opened.page.locator('[data-testid="connection-status"][data-state="connected"]').waitFor();
  return opened;
}

const messages = (page: Page) => page.getByTestId('chat-message');

async function send(page: Page, text: string) {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
}

describe('chat', () => {
  // Made inside the first test: mailedLink polls, which vitest allows only in a test.
  let session: Session;

  it('shows a sent message at once as pending, then as confirmed by the server', async () => {
    session = await verifiedUser('chat');
    const context = await signedInContext(browser, session);
    const { page, errors } = await openChat(context);
    await page.getByText('No messages yet').waitFor();
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/users/messages', async (route) => {
      await held;
      await route.continue();
    });
    await send(page, 'Is the garage door closed?');
    const mine = messages(page).filter({ hasText: 'Is the garage door closed?' });
    await mine.and(page.locator('[data-pending="true"]')).waitFor();
    await page.getByText('Sending…').waitFor();
    release();
    await mine.and(page.locator(':not([data-pending])')).waitFor();
    expect(await mine.count()).toBe(1);
    await page.unroute('**/api/users/messages');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the failure of a send with a retry that works', async () => {
    const context = await signedInContext(browser, session);
    const { page, errors } = await openChat(context);
    await page.route('**/api/users/messages', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, code: 'internal', message: 'Failed to send message.' }),
      }),
    );
    await send(page, 'Did the parcel arrive?');
    const failed = messages(page).filter({ hasText: 'Did the parcel arrive?' });
    await failed.and(page.locator('[data-error="true"]')).waitFor();
    await failed.getByRole('alert').filter({ hasText: 'Failed to send message.' }).waitFor();
    await page.unroute('**/api/users/messages');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await messages(page)
      .filter({ hasText: 'Did the parcel arrive?' })
      .and(page.locator(':not([data-error]):not([data-pending])'))
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the home sitter's message published by the server live, without a reload", async () => {
    const context = await signedInContext(browser, session);
    const { page, errors } = await openChat(context);
    await post(
      '/api/admin/chat/agent-message',
      { email: session.user.email, text: 'A delivery van stopped at the gate.' },
      { authorization: `Bearer ${adminToken}` },
    );
    await messages(page).filter({ hasText: 'A delivery van stopped at the gate.' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('answers a question, saying plainly when it saw nothing', async () => {
    const context = await signedInContext(browser, session);
    const { page, errors } = await openChat(context);
    await send(page, 'Did anyone come to the door today?');
    // "today": the parcel question above is answered "I didn't see anyone …, so no delivery" in this chat too.
    await messages(page).filter({ hasText: "I didn't see anyone today" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps two tabs of the same user in sync', async () => {
    const context = await signedInContext(browser, session);
    const a = await openChat(context);
    const b = await openChat(context);
    await send(a.page, 'Sent from the first tab');
    await messages(b.page).filter({ hasText: 'Sent from the first tab' }).waitFor();
    await messages(a.page)
      .filter({ hasText: 'Sent from the first tab' })
      .and(a.page.locator(':not([data-pending])'))
      .waitFor();
    await expect.poll(() => messages(a.page).filter({ hasText: 'Sent from the first tab' }).count()).toBe(1);
    expect(await messages(b.page).filter({ hasText: 'Sent from the first tab' }).count()).toBe(1);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await context.close();
  });

  it('loads older messages when scrolled to the top and keeps what was on screen in place', async () => {
    const user = await verifiedUser('history');
    // The home sitter's messages: a user's message would get an answer of its own, interleaving the history.
    for (let i = 1; i <= 25; i++) {
      await post(
        '/api/admin/chat/agent-message',
        { email: user.user.email, text: `History ${i}` },
        { authorization: `Bearer ${adminToken}` },
      );
    }
    const context = await signedInContext(browser, user, MOBILE);
    const { page, errors } = await openChat(context);
    const oldestShown = messages(page).filter({ hasText: 'History 16' });
    await oldestShown.waitFor();
    expect(await messages(page).count()).toBe(10);
    // Scroll to the top and note where the oldest shown message is, in the same frame (before loading starts).
    const before = await page.getByTestId('chat-scroller').evaluate((el) => {
      el.scrollTo({ top: 0 });
      const target = [...el.querySelectorAll('[data-testid="chat-message"]')].find((m) =>
        m.textContent?.includes('History 16'),
      );
      return target!.getBoundingClientRect().y;
    });
    await expect.poll(() => messages(page).count()).toBe(20);
    const afterY = (await oldestShown.boundingBox())!.y;
    // The message that was first stays where the eye left it (not jumped to the top by ten messages).
    expect(Math.abs(afterY - before)).toBeLessThan(120);
    await page.getByTestId('chat-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => messages(page).count()).toBe(25);
    await messages(page).first().filter({ hasText: 'History 1' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('highlights', () => {
  it('shows the empty state for a day without summaries, and a date picker for earlier days', async () => {
    const session = await verifiedUser('highlights');
    // With a camera: without one the page offers to add the first camera instead (onboarding.e2e.ts).
    await post('/api/users/cameras', { name: 'Porch' }, { authorization: `Bearer ${session.idToken}` });
    const context = await signedInContext(browser, session);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/highlights`);
    await page.getByRole('heading', { name: 'Highlights' }).waitFor();
    await page.getByText('Nothing to report for this day').waitFor();
    await page.getByLabel('Day').fill('2025-01-15');
    await page.getByText('What happened that day').waitFor();
    await page.getByText('Nothing to report for this day').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
