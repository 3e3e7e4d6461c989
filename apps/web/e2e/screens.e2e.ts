import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
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

const { baseUrl, dataDir } = e2eServer();

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where a reviewer looks at the main screens (gitignored, rewritten on each run). */
const SCREENS = path.join(here, 'screens');
const CAMERA = 'Porch';

const SIZES = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;

/** Each main screen and the title it shows in each language (the screenshot is taken once it is there). */
const MAIN_SCREENS = [
  { name: 'highlights', url: '/highlights', title: { en: 'Highlights', de: 'Highlights' } },
  { name: 'chat', url: '/chat', title: { en: 'Chat', de: 'Chat' } },
  { name: 'cameras', url: '/cameras', title: { en: 'Cameras', de: 'Kameras' } },
  { name: 'camera', url: `/cameras/${CAMERA}`, title: { en: CAMERA, de: CAMERA } },
  { name: 'memories', url: '/memories', title: { en: 'Memories', de: 'Erinnerungen' } },
  { name: 'settings', url: '/settings', title: { en: 'Settings', de: 'Einstellungen' } },
  { name: 'account', url: '/settings/account', title: { en: 'Account', de: 'Konto' } },
] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  mkdirSync(SCREENS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** What a camera does: a snapshot with a person to the HTTP ingest, so the screens have an alert to show. */
async function personAtTheDoor(session: ApiSession) {
  await cameraSnapshot(baseUrl, session, CAMERA);
  await expect
    .poll(
      async () =>
        (
          await apiCall<{ data: { videos: unknown[] }[] }>(
            baseUrl,
            'GET',
            '/api/users/conversation-history?page=1',
            session,
          )
        ).data.some((m) => m.videos.length > 0),
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
}

/** Waits until nothing slides or fades any more (pulses and spinners run forever and are left alone). */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await page.waitForFunction(() =>
    [...document.images].every((img) => img.complete || img.loading === 'lazy'),
  );
}

async function shoot(page: Page, file: string) {
  await settled(page);
  const target = path.join(SCREENS, `${file}.png`);
  await page.screenshot({ path: target });
  expect(statSync(target).size).toBeGreaterThan(0);
}

describe('screenshots of the main screens', () => {
  for (const lang of ['en', 'de'] as const) {
    it(
      `in ${lang === 'en' ? 'English' : 'German'}, at desktop and phone size`,
      { timeout: 240_000 },
      async () => {
        const session = await verifiedUserViaApi(baseUrl, dataDir, `screens-${lang}`);
        await apiCall(baseUrl, 'POST', '/api/users/preferred-language', session, {
          preferred_language: lang,
        });
        await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: CAMERA });
        await personAtTheDoor(session);

        for (const [size, options] of Object.entries(SIZES)) {
          const signedOut = await browser.newContext(options);
          await signedOut.addInitScript((l) => window.localStorage.setItem('homesitter.language', l), lang);
          const out = await openPage(signedOut);
          await out.page.goto(`${baseUrl}/auth`);
          await out.page.getByRole('heading', { level: 1 }).first().waitFor();
          expect(await out.page.evaluate(() => document.documentElement.lang)).toBe(lang);
          await shoot(out.page, `sign-in-${size}-${lang}`);
          expect(out.errors).toEqual([]);
          await signedOut.close();

          const context = await signedInContext(browser, session, options);
          await context.addInitScript((l) => window.localStorage.setItem('homesitter.language', l), lang);
          const { page, errors } = await openPage(context);
          for (const screen of MAIN_SCREENS) {
            await page.goto(`${baseUrl}${screen.url}`);
            await page.getByRole('heading', { name: screen.title[lang], level: 1, exact: true }).waitFor();
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
            await shoot(page, `${screen.name}-${size}-${lang}`);
          }
          expect(errors).toEqual([]);
          await context.close();
        }
      },
    );
  }
});
