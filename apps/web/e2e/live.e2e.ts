import {
  decodeClock,
  publishScene,
  startRtspServer,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, e2eServer, launch, openPage, signUpInBrowser, uniqueEmail, verifyByMail } from './browser';

/**
 * A stream camera from the user's side: added through the form, followed through its configuration, then
 * watched live. The camera is an RTSP server on 127.0.0.1 started here, publishing a picture that carries the
 * time each frame was made, so the test reads back from the page that the video plays and its frames change.
 */
const { baseUrl, dataDir } = e2eServer();
const LOGIN = { username: 'cam', password: 'e2e-camera-pass' };

let browser: Browser;
let page: Page;
let errors: string[];
let rtsp: RtspTestServer;
let publication: Publication;

beforeAll(async () => {
  rtsp = await startRtspServer({ auth: { ...LOGIN, scheme: 'digest' } });
  publication = await publishScene(rtsp.url('/clock'), 'clock', { width: 640, height: 360, fps: 10 });
  await rtsp.waitForPublisher('/clock');
  browser = await launch();
  ({ page, errors } = await openPage(await browser.newContext(DESKTOP)));
});
afterAll(async () => {
  await browser?.close();
  await publication?.stop();
  await rtsp?.close();
});

/**
 * The time the video element's current frame was made, read from its blocks; null before a frame. The page
 * hands over a small copy of the frame and the blocks are read here (the app's CSP rightly forbids eval).
 */
async function frameTime(): Promise<number | null> {
  const frame = await page.evaluate(() => {
    const video = document.querySelector('video');
    if (!video || video.readyState < 2) return null;
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d')!;
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    return Array.from(context.getImageData(0, 0, canvas.width, canvas.height).data);
  });
  return frame ? decodeClock(Uint8ClampedArray.from(frame), 320, 180) : null;
}

describe('a stream camera', () => {
  it('is added with its RTSP address and shows its progress until it is connected', async () => {
    const email = uniqueEmail('live');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);

    await page.goto(`${baseUrl}/cameras/add`);
    await page.getByText('RTSP or ONVIF camera', { exact: true }).click();
    await page.getByText('RTSP address', { exact: true }).click();
    await page.getByLabel('Camera name').fill('Clock');
    await page.getByLabel('Stream address (RTSP)').fill(rtsp.url('/clock'));
    await page.getByLabel('Username (optional)').fill(LOGIN.username);
    await page.getByLabel('Password (optional)').fill(LOGIN.password);
    await page.getByRole('button', { name: 'Add and connect' }).click();
    await page.getByText('Clock is connected.').waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'Open the camera' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('plays live: the video element shows frames, and they change', async () => {
    await page.goto(`${baseUrl}/cameras/Clock/view`);
    await page.waitForFunction(
      () => {
        const video = document.querySelector('video');
        return !!video && video.readyState >= 2 && !video.paused;
      },
      undefined,
      { timeout: 60_000 },
    );
    let first: number | null = null;
    while (first === null) first = await frameTime();
    let later: number | null = first;
    while (later === null || later <= first) later = await frameTime();
    expect(later).toBeGreaterThan(first);
    // The frame shown was made moments ago (the wall clock of this same machine), not minutes.
    expect(Math.abs(Date.now() - later)).toBeLessThan(30_000);
    expect(errors).toEqual([]);
  });

  it('goes fullscreen and back', async () => {
    await page.goto(`${baseUrl}/cameras/Clock/fullscreen`);
    await page.locator('video').waitFor();
    await page.getByRole('button', { name: /Leave fullscreen/ }).click();
    await page.waitForURL('**/cameras/Clock/view');
  });
});
