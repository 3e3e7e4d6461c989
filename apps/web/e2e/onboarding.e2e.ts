import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanAddress } from '../../server/src/platform/lan-address';
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

// An 8×8 red PNG.
const RED_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC';

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

/** Creates a property on the cameras screen and waits until the memories were counted for the prompt. */
async function createProperty(name: string) {
  await page.goto(`${baseUrl}/cameras`);
  await page.getByRole('button', { name: 'New property' }).click();
  await page.getByLabel('Property name').fill(name);
  const counted = page.waitForResponse((r) => r.url().includes('/api/users/memories') && r.ok());
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByText(`Property ${name} created`).first().waitFor();
  await counted;
}

describe('a new homeowner, from the first visit to the first camera and person (issue 31, points 4 and 14)', () => {
  it('learns what the product does on / before the sign-up form', async () => {
    await page.goto(baseUrl);
    await page.waitForURL('**/auth');
    const pitch = page.getByRole('heading', { name: 'Your home sitter for the cameras you already have' });
    await pitch.waitFor();
    await page.getByText('tells you who or what it saw', { exact: false }).waitFor();
    const pitchBox = await pitch.boundingBox();
    const formBox = await page.getByLabel('Email').boundingBox();
    expect(pitchBox!.y).toBeLessThan(formBox!.y);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('is offered "Add your first camera" on the empty highlights after verifying', async () => {
    const email = uniqueEmail('onboarding');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);
    const add = page.getByRole('link', { name: 'Add your first camera' });
    await add.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await add.click();
    await page.waitForURL('**/cameras/add');
  });

  it("reads in camera setup that uploads carry the camera's name, and this machine's LAN address, never localhost", async () => {
    await page.goto(`${baseUrl}/settings/camera-setup`);
    await page.getByRole('heading', { name: 'FTP upload' }).waitFor();
    await page.getByRole('heading', { name: 'Email upload' }).waitFor();
    expect(await page.getByText('Email alerts', { exact: true }).count()).toBe(0);
    await page.getByText("Upload folder (remote directory): the camera's name", { exact: false }).waitFor();
    await page.getByText("Sender name: the camera's name", { exact: false }).waitFor();

    const lan = lanAddress();
    expect(lan).not.toMatch(/^(localhost|127\.)/);
    // FTP server and SMTP server, and the Send to address at that host.
    await expect.poll(() => page.locator('code', { hasText: new RegExp(`^${lan}$`) }).count()).toBe(2);
    await page.locator('code', { hasText: `@${lan}` }).waitFor();
    expect(await page.locator('code', { hasText: 'localhost' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('is not asked about existing memories when there are none, and Add camera preselects the new property', async () => {
    await createProperty('Home');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // A modal prompt would block this click.
    await page.getByRole('link', { name: 'Add camera' }).click();
    await page.waitForURL('**/cameras/add');
    const property = page.getByLabel('Property', { exact: true });
    await expect.poll(() => property.locator('option:checked').textContent()).toBe('Home');
    await page.getByLabel('Camera name').fill('Porch');
    await page.getByRole('button', { name: 'Add camera' }).click();
    await page.waitForURL('**/cameras/Porch');
    // The camera's switch says it is needed besides the account's (Settings → Data privacy).
    await page.getByText('it must be on in both places', { exact: false }).waitFor();
    await page.goto(`${baseUrl}/cameras`);
    await page
      .locator('[data-testid="property-group"][data-property="Home"] [data-camera="Porch"]')
      .waitFor();
  });

  it('makes a person with the property chip on, a photo, and a word on facial recognition per camera', async () => {
    await page.goto(`${baseUrl}/memories/people/new`);
    await page.getByLabel('Name').fill('Rose');
    await expect
      .poll(() => page.getByRole('button', { name: 'Home' }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByTestId('recognition-note').getByText("on each camera's page", { exact: false }).waitFor();
    await page
      .getByTestId('new-photo-input')
      .setInputFiles([{ name: 'rose.png', mimeType: 'image/png', buffer: Buffer.from(RED_PNG, 'base64') }]);
    await page.getByText('1 photo picked').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/memories\/people\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Rose', level: 1 }).waitFor();
    await page.getByText('1 of 10').waitFor();
    await page.getByRole('img', { name: 'Photo 1' }).waitFor();
    await page.getByRole('list', { name: 'Properties' }).getByText('Home').waitFor();
  });

  it('is asked about associating memories once there are some', async () => {
    await createProperty('Cabin');
    const prompt = page.getByRole('alertdialog', { name: 'Associate memories with this property?' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'No' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
