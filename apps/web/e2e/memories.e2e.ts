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

// Two small, different PNGs (8×8, one red, one blue).
const RED_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC';
const BLUE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEElEQVR4nGNgYPiPAw0pCQCpcD/BFMrqcwAAAABJRU5ErkJggg==';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launch();
  ({ page, errors } = await openPage(await browser.newContext(DESKTOP)));
});
afterAll(async () => {
  await browser?.close();
});

describe('memories', () => {
  it('signs up a verified user', async () => {
    const email = uniqueEmail('memories');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);
  });

  it('creates a person with two photos', async () => {
    await page.goto(`${baseUrl}/memories`);
    await page.getByRole('tab', { name: /People\s*0/ }).waitFor();
    await page.getByRole('link', { name: 'New person' }).click();
    await page.waitForURL('**/memories/people/new');
    await page.getByLabel('Name').fill('Rose');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/memories\/people\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Rose', level: 1 }).waitFor();

    await page.getByTestId('photo-input').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: Buffer.from(RED_PNG, 'base64') },
      { name: 'blue.png', mimeType: 'image/png', buffer: Buffer.from(BLUE_PNG, 'base64') },
    ]);
    await page.getByText('2 of 10').waitFor();
    await expect.poll(() => page.getByRole('img', { name: /^Photo \d$/ }).count()).toBe(2);
    await expect
      .poll(() =>
        page
          .getByRole('img', { name: 'Photo 2' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits the name in place', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Rosie');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Rosie', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Back to memories' }).click();
    await page.getByRole('tab', { name: /People\s*1/ }).waitFor();
    await page.getByRole('link', { name: /Rosie/ }).waitFor();
  });

  it('makes a short-term memory long-term', async () => {
    await page.goto(`${baseUrl}/memories/other/new`);
    await page.getByLabel('What should the home sitter remember?').fill('The plumber comes this week');
    await page.getByLabel('Only for a while').check();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/memories\/other\/[0-9a-f-]{36}$/);
    await page.getByText(/^Until /).waitFor();
    await page.getByRole('button', { name: 'Keep forever' }).click();
    await page.getByText('Kept until you delete it').waitFor();
    expect(await page.getByText(/^Until /).count()).toBe(0);
  });

  it('deletes a memory after confirmation', async () => {
    await page.getByRole('button', { name: 'Delete memory' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete this memory?').waitFor();
    await dialog.getByRole('button', { name: 'Delete memory' }).click();
    await page.waitForURL('**/memories?category=other');
    await page.getByText('No notes yet.', { exact: false }).waitFor();
    await page.getByRole('tab', { name: /Other\s*0/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
