import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  e2eServer,
  launch,
  openPage,
  seriousViolations,
  signUpInBrowser,
  uniqueEmail,
  verifyByMail,
} from './browser';

const { baseUrl, dataDir } = e2eServer();
const CAMERA = 'Door';
/**
 * How long today's summary may take after an upload: the server rewrites it HIGHLIGHTS_REFRESH_DELAY_SECONDS
 * (30 s by default) after a new event, and its queue looks for due jobs every 5 s.
 */
const SUMMARY_TIMEOUT_MS = 90_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A JPEG snapshot made by ffmpeg (the server's own static build unless `FFMPEG_PATH`), as a camera sends. */
function snapshot(): Buffer {
  const serverRequire = createRequire(fileURLToPath(new URL('../../server/package.json', import.meta.url)));
  const bin = process.env.FFMPEG_PATH ?? (serverRequire('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hs-e2e-highlights-')), 'snap.jpg');
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25'];
  const r = spawnSync(bin, [...args, '-frames:v', '1', file]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  return readFileSync(file);
}

/** The signed-in page's ID token (the app keeps its session in localStorage). */
async function idTokenOf(page: Page): Promise<string> {
  const stored = await page.evaluate(() => window.localStorage.getItem('homesitter.session'));
  return (JSON.parse(stored ?? '{}') as { idToken: string }).idToken;
}

async function call<T>(idToken: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${idToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** What a camera does: POST its file to the HTTP ingest with the user's camera upload login. */
async function cameraUpload(idToken: string, bytes: Buffer): Promise<void> {
  const { data: login } = await call<{ data: { username: string; password: string } }>(
    idToken,
    'GET',
    '/api/users/camera-email-credentials',
  );
  const form = new FormData();
  form.set('camera_name', CAMERA);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'motion.jpg');
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(202);
}

describe('the highlights page', () => {
  it(
    'updates live after an upload: the first event of the day appears without a reload',
    async () => {
      // The device runs in UTC, the user lives in Berlin: the page names the clock its times are in.
      const context = await browser.newContext({ ...DESKTOP, timezoneId: 'UTC' });
      const { page, errors } = await openPage(context);
      const email = uniqueEmail('highlights');
      await signUpInBrowser(page, baseUrl, email);
      await verifyByMail(page, dataDir, email);
      const idToken = await idTokenOf(page);
      // The app made the profile in the device's zone on the way in; the user moves it to Berlin.
      await expect
        .poll(() =>
          call(idToken, 'GET', '/api/users/profile').then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      await call(idToken, 'POST', '/api/users/personal-info', { timezone: 'Europe/Berlin' });
      await call(idToken, 'POST', '/api/users/cameras', { name: CAMERA });
      await page.reload();

      await page.getByRole('heading', { name: 'Highlights', level: 1 }).waitFor();
      await page.getByText('Times in Europe/Berlin').waitFor();
      await page.getByText('Nothing to report for this day').waitFor();
      // Set on this document only: gone if the page were reloaded.
      await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

      await cameraUpload(idToken, snapshot());
      // Written by the server soon after the event and announced over realtime: no reload, no refresh click.
      const daily = page.getByTestId('daily-summary');
      await daily.waitFor({ timeout: SUMMARY_TIMEOUT_MS });
      await expect.poll(() => daily.textContent()).toMatch(/Today so far: one event/);
      expect(await page.getByText('Nothing to report for this day').count()).toBe(0);
      expect(await page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(
        true,
      );
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
    SUMMARY_TIMEOUT_MS + 90_000,
  );
});
