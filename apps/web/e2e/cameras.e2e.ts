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

const group = (name: string) => page.locator(`[data-testid="property-group"][data-property="${name}"]`);
const card = (name: string) => page.locator(`[data-testid="camera-card"][data-camera="${name}"]`);
const handle = (name: string) => page.getByRole('button', { name: `Move ${name} to another property` });

async function addCamera(name: string) {
  await page.goto(`${baseUrl}/cameras/add`);
  await page.getByLabel('Camera name').fill(name);
  await page.getByRole('button', { name: 'Add camera' }).click();
  await page.waitForURL(`**/cameras/${encodeURIComponent(name)}`);
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe('cameras and properties', () => {
  it('signs up a verified user', async () => {
    const email = uniqueEmail('cams');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);
  });

  it('adds a camera, with the name checked inline', async () => {
    await page.goto(`${baseUrl}/cameras`);
    await page.getByRole('heading', { name: 'No cameras yet' }).waitFor();
    await page.getByRole('link', { name: 'Add camera' }).click();
    await page.waitForURL('**/cameras/add');
    await page.getByRole('button', { name: 'Add camera' }).click();
    await page.getByText('Camera name is required').waitFor();

    await page.getByLabel('Camera name').fill('Front Door');
    await page.getByRole('button', { name: 'Add camera' }).click();
    await page.waitForURL('**/cameras/Front%20Door');
    await page.getByText('No activity yet').first().waitFor();
    await addCamera('Back Yard');
    expect(errors).toEqual([]);
  });

  it('refuses a duplicate name, ignoring case', async () => {
    await page.goto(`${baseUrl}/cameras/add`);
    await page.getByLabel('Camera name').fill('front door');
    await page.getByText('A camera with this name already exists. Please choose a different name.').waitFor();
    await page.getByRole('button', { name: 'Add camera' }).click();
    expect(page.url()).toMatch(/\/cameras\/add$/);
  });

  it('creates a property and asks to associate all memories with it', async () => {
    // The prompt is only for a user with memories to associate.
    await page.goto(`${baseUrl}/memories/other/new`);
    await page.getByLabel('What should the home sitter remember?').fill('The plumber comes this week');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/memories\/other\/[0-9a-f-]{36}$/);
    await page.goto(`${baseUrl}/cameras`);
    await card('Front Door').waitFor();
    await page.getByRole('button', { name: 'New property' }).click();
    await page.getByLabel('Property name').fill('Lake house');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const prompt = page.getByRole('alertdialog', { name: 'Associate memories with this property?' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Memories associated with the property').waitFor();
    await prompt.waitFor({ state: 'detached' });
    await group('Lake house').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('drags a camera into the property with the mouse', async () => {
    const from = await handle('Front Door').boundingBox();
    const to = await group('Lake house').boundingBox();
    if (!from || !to) throw new Error('nothing to drag');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 20, from.y + 20, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    await group('Lake house').locator('[data-camera="Front Door"]').waitFor();
    await page.reload();
    await group('Lake house').locator('[data-camera="Front Door"]').waitFor();
  });

  it('moves a camera into the property with the keyboard', async () => {
    await group('No property').locator('[data-camera="Back Yard"]').waitFor();
    await handle('Back Yard').focus();
    // Each key waits for what a screen-reader user hears before the next one, as a person would.
    const live = page.locator('[id^="DndLiveRegion"]');
    await page.keyboard.press('Space');
    await live.getByText('Back Yard is over No property.').waitFor({ state: 'attached' });
    // dnd-kit measures the properties just after the drag starts, and ignores an arrow key pressed before
    // that: the key is pressed again while the camera is still where it started (Lake house is the top
    // group, so a second press cannot carry it past).
    const overLakeHouse = live.getByText('Back Yard is over Lake house.');
    await expect
      .poll(
        async () => {
          if ((await overLakeHouse.count()) > 0) return true;
          await page.keyboard.press('ArrowUp');
          return false;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    await page.keyboard.press('Space');
    await group('Lake house').locator('[data-camera="Back Yard"]').waitFor();
    await page.reload();
    await group('Lake house').locator('[data-camera="Back Yard"]').waitFor();
  });

  it('deletes a property optimistically and restores it with a toast when the server fails', async () => {
    await page.route('**/api/users/sites/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ success: false, code: 'internal', message: 'Failed to delete property' }),
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Actions for Lake house' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await group('Lake house').waitFor({ state: 'detached' });
    // Three attempts 2 s apart (docs/product.md §8), then the property comes back with its cameras.
    await page.getByText('Failed to delete property').waitFor({ timeout: 15_000 });
    await group('Lake house').locator('[data-camera="Front Door"]').waitFor();
    await page.unroute('**/api/users/sites/*');
    expect(errors).toEqual([]);
  });
});
