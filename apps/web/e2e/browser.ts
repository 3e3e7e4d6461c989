import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { E2EServer } from './server';

/** The suite's browser (e2e/chromium.ts); `close()` ends this file's connection and its contexts only. */
export async function launch(): Promise<Browser> {
  return chromium.connect(inject('browserEndpoint'));
}

/** The server of the worker running this file (e2e/server.ts; vitest numbers its workers 1…maxWorkers). */
export function e2eServer(): E2EServer {
  const servers = inject('servers');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return servers[(worker - 1) % servers.length]!;
}

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const MOBILE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/** A page that records console errors; network failures the test provokes are asserted where they happen. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The newest link to `route` mailed to `to`, read from the server's outbox (`DATA_DIR/outbox/*.eml`). */
export async function mailedLink(dataDir: string, to: string, route: string): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        if (!existsSync(dir)) return undefined;
        const files = readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
        for (const file of files) {
          const mail = decodeQuotedPrintable(readFileSync(path.join(dir, file), 'utf8'));
          if (!mail.toLowerCase().includes(to.toLowerCase())) continue;
          const match = new RegExp(`https?://[^\\s"<>]+/${route}\\?code=[^\\s"<>&]+`).exec(mail);
          if (match) return (link = match[0]);
        }
        return undefined;
      },
      { timeout: 15_000, interval: 200 },
    )
    .toBeDefined();
  return link!;
}

let counter = 0;
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.com`;
}

export const PASSWORD = 'correct horse battery';

/** A session of the identity provider, as its sign-up, sign-in and token calls answer it. */
export interface ApiSession {
  idToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { uid: string; email: string };
}

/** One JSON call of the API; throws with the status and body on anything but 2xx. */
/** A browser context already signed in as `session` (the app's stored session), so a test starts on its page. */
export async function signedInContext(
  browser: Browser,
  session: ApiSession,
  options: object = DESKTOP,
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const stored = {
    idToken: session.idToken,
    refreshToken: session.refreshToken,
    expiresAt: Date.now() + session.expiresIn * 1000,
    user: session.user,
  };
  await context.addInitScript((value) => {
    if (!window.localStorage.getItem('homesitter.session'))
      window.localStorage.setItem('homesitter.session', value);
  }, JSON.stringify(stored));
  return context;
}

export async function apiCall<T>(
  baseUrl: string,
  method: string,
  url: string,
  session: ApiSession | null,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(session ? { authorization: `Bearer ${session.idToken}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A verified user with a profile in Berlin time, made through the API (sign-up has its own tests). */
export async function verifiedUserViaApi(
  baseUrl: string,
  dataDir: string,
  label: string,
): Promise<ApiSession> {
  const email = uniqueEmail(label);
  const first = await apiCall<ApiSession>(baseUrl, 'POST', '/api/auth/sign-up', null, {
    email,
    password: PASSWORD,
  });
  const code = new URL(await mailedLink(dataDir, email, 'verify-email')).searchParams.get('code');
  await apiCall(baseUrl, 'POST', '/api/auth/verify-email', null, { code });
  const session = await apiCall<ApiSession>(baseUrl, 'POST', '/api/auth/token', null, {
    refreshToken: first.refreshToken,
  });
  await apiCall(baseUrl, 'POST', '/api/users', session, { timezone: 'Europe/Berlin' });
  return session;
}

/** Signs up through the auth page and waits for the verify-email screen. */
export async function signUpInBrowser(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('#accept-terms').check();
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await page.waitForURL('**/verify-email');
}

/** Follows the verification link from the outbox mail and lands on highlights. */
export async function verifyByMail(page: Page, dataDir: string, email: string): Promise<void> {
  await page.goto(await mailedLink(dataDir, email, 'verify-email'));
  await page.waitForURL('**/highlights');
}

/**
 * axe's serious and critical violations on the page, as readable lines (an empty list passes). It waits for
 * CSS transitions and finite animations to end first: axe blends colours with the opacity of the moment, so a
 * toast fading in, or fading behind a newer one, fails colour contrast at a frame nobody reads.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A real photo of a person (test-media/SOURCES.md): the server's vision sees a person and alerts. */
export const PERSON_PHOTO = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../test-media/person-obama-1.jpg',
);

/** What a camera does: POST a snapshot to the HTTP ingest with the user's camera upload login. */
export async function cameraSnapshot(
  baseUrl: string,
  session: ApiSession,
  camera: string,
  file = PERSON_PHOTO,
): Promise<void> {
  const { data: login } = await apiCall<{ data: { username: string; password: string } }>(
    baseUrl,
    'GET',
    '/api/users/camera-email-credentials',
    session,
  );
  const form = new FormData();
  form.set('camera_name', camera);
  form.append('file', new Blob([new Uint8Array(readFileSync(file))], { type: 'image/jpeg' }), 'motion.jpg');
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(202);
}
