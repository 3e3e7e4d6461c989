import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  e2eServer,
  launch,
  MOBILE,
  openPage,
  seriousViolations,
  signedInContext,
  verifiedUserViaApi,
  type ApiSession,
} from './browser';

const { baseUrl, dataDir } = e2eServer();
const CAMERA = 'Porch';

type Session = ApiSession;

let browser: Browser;
let media: { clip: Buffer; snapshot: Buffer };
beforeAll(async () => {
  browser = await launch();
  media = cameraMedia();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * `FFMPEG_PATH`, else the static ffmpeg the server under test uses: @ffmpeg-installer/ffmpeg, a dependency
 * of apps/server (so resolved from there), which keeps this suite free of a system ffmpeg.
 */
function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const serverRequire = createRequire(fileURLToPath(new URL('../../server/package.json', import.meta.url)));
  return (serverRequire('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** A 3 s H.264 clip and a JPEG snapshot, made by ffmpeg (what a camera would send). */
function cameraMedia() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hs-e2e-media-'));
  const bin = ffmpegPath();
  const ffmpeg = (args: string[]) => {
    const r = spawnSync(bin, ['-hide_banner', '-loglevel', 'error', ...args]);
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  };
  const source = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25'];
  ffmpeg([
    ...source,
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '25',
    path.join(dir, 'clip.mp4'),
  ]);
  ffmpeg([...source, '-frames:v', '1', path.join(dir, 'snap.jpg')]);
  return {
    clip: readFileSync(path.join(dir, 'clip.mp4')),
    snapshot: readFileSync(path.join(dir, 'snap.jpg')),
  };
}

const call = <T>(method: string, url: string, session: Session | null, body?: unknown) =>
  apiCall<T>(baseUrl, method, url, session, body);

const verifiedUser = () => verifiedUserViaApi(baseUrl, dataDir, 'past');

/** What a camera does: POST its files to the HTTP ingest with the user's camera upload login. */
async function cameraUpload(session: Session, files: { name: string; type: string; bytes: Buffer }[]) {
  const { data: login } = await call<{ data: { username: string; password: string } }>(
    'GET',
    '/api/users/camera-email-credentials',
    session,
  );
  const form = new FormData();
  form.set('camera_name', CAMERA);
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(202);
}

async function openPast(page: Page) {
  await page.goto(`${baseUrl}/cameras/${CAMERA}`);
  await page.getByRole('heading', { name: CAMERA, level: 1 }).waitFor();
  await page.getByRole('tab', { name: 'Past' }).click();
}

const items = (page: Page) => page.getByTestId('activity');

describe("a camera's past events", () => {
  let session: Session;

  it('shows a new event as it arrives, with its time in the user’s time zone, and plays its clip', async () => {
    session = await verifiedUser();
    await call('POST', '/api/users/cameras', session, { name: CAMERA });
    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    await openPast(page);
    await page.getByText('Past events appear here once the camera uploads clips or snapshots.').waitFor();

    await cameraUpload(session, [{ name: 'motion.mp4', type: 'video/mp4', bytes: media.clip }]);
    // Processed in the background and announced over realtime: it appears without a reload.
    await items(page).first().waitFor({ timeout: 30_000 });
    // The camera's snapshot of the same moment joins that event.
    await cameraUpload(session, [{ name: 'motion.jpg', type: 'image/jpeg', bytes: media.snapshot }]);
    let data: { date_time_utc: string; image_urls: string[] }[] = [];
    await expect
      .poll(
        async () => {
          ({ data } = await call<{ data: typeof data }>(
            'GET',
            `/api/users/activities?camera_name=${CAMERA}`,
            session,
          ));
          return data.map((a) => a.image_urls.length);
        },
        { timeout: 30_000 },
      )
      .toEqual([1]);
    await openPast(page);
    await items(page).first().waitFor();
    expect(await items(page).count()).toBe(1);
    const berlin = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Berlin',
    }).format(new Date(data[0]!.date_time_utc));
    await items(page).first().locator('time').filter({ hasText: berlin }).waitFor();
    const thumbnail = items(page).first().locator('img');
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: `Play the clip from ${berlin}` }).click();
    const viewer = page.getByRole('dialog');
    await viewer.waitFor();
    const video = viewer.locator('video');
    // hls.js (or the browser's own HLS) has the stream attached and the clip starts playing.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc || v.src)).not.toBe('');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await viewer.getByRole('img', { name: /Snapshot 1 of 1 from Porch/ }).waitFor();
    await viewer.getByRole('link', { name: 'Download the clip' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the event of a tapped alert (/chat?activity=…) over the chat, and says when it is gone', async () => {
    const { data } = await call<{ data: { activity_uuid: string }[] }>(
      'GET',
      `/api/users/activities?camera_name=${CAMERA}`,
      session,
    );
    const context = await signedInContext(browser, session, MOBILE);
    const { page } = await openPage(context);
    await page.goto(`${baseUrl}/chat?activity=${data[0]!.activity_uuid}`);
    const viewer = page.getByRole('dialog', { name: new RegExp(`^${CAMERA}`) });
    await viewer.waitFor();
    await viewer.locator('video').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.has('activity')).toBe(false);

    await page.goto(`${baseUrl}/chat?activity=00000000-0000-4000-8000-000000000000`);
    await page.getByText('That event is no longer available.').waitFor();
    expect(new URL(page.url()).searchParams.has('activity')).toBe(false);
    await context.close();
  });

  it('deletes the history from the camera settings after a confirmation (mobile layout)', async () => {
    const context = await signedInContext(browser, session, MOBILE);
    const { page, errors } = await openPage(context);
    await openPast(page);
    await items(page).first().waitFor();

    await page.getByRole('button', { name: 'Delete history' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete the history of ${CAMERA}?` });
    await confirm.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete history' }).click();
    await page.getByText(`History of ${CAMERA} deleted (1 event)`).waitFor();
    await page.getByText('Past events appear here once the camera uploads clips or snapshots.').waitFor();
    const { data } = await call<{ data: unknown[] }>(
      'GET',
      `/api/users/activities?camera_name=${CAMERA}`,
      session,
    );
    expect(data).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
