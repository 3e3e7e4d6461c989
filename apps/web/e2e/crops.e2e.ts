import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Activity } from '@homesitter/contract';
import type { Browser } from 'playwright-core';
import type Sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  e2eServer,
  launch,
  signedInContext,
  verifiedUserViaApi,
  type ApiSession,
} from './browser';

const { baseUrl, dataDir } = e2eServer();
const testMedia = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test-media/${name}`, import.meta.url)));
/** The server's sharp, to compare pictures (the web app has no image library of its own). */
const sharp = createRequire(fileURLToPath(new URL('../../server/package.json', import.meta.url)))(
  'sharp',
) as typeof Sharp;
/**
 * The AI looks at an event after it is processed, and today's summary is rewritten
 * HIGHLIGHTS_REFRESH_DELAY_SECONDS (30 s by default) after it, found by a queue that looks every 5 s.
 */
const ANALYSED_TIMEOUT_MS = 90_000;

let browser: Browser;
let session: ApiSession;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** What a camera does: POST its file to the HTTP ingest with the user's camera upload login. */
async function cameraUpload(camera: string, bytes: Buffer, type: string, name: string): Promise<void> {
  const { data: login } = await apiCall<{ data: { username: string; password: string } }>(
    baseUrl,
    'GET',
    '/api/users/camera-email-credentials',
    session,
  );
  const form = new FormData();
  form.set('camera_name', camera);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(202);
}

/** The camera's event once the AI has looked at it (its objects are filled in). */
async function analysedEvent(camera: string): Promise<Activity> {
  let found: Activity | undefined;
  await expect
    .poll(
      async () => {
        const { data } = await apiCall<{ data: Activity[] }>(
          baseUrl,
          'GET',
          `/api/users/activities?camera_name=${encodeURIComponent(camera)}`,
          session,
        );
        found = data.find((a) => a.objects.length > 0);
        return found !== undefined;
      },
      { timeout: ANALYSED_TIMEOUT_MS },
    )
    .toBe(true);
  return found!;
}

const position = (focus: { x: number; y: number }) =>
  `${Math.round(focus.x * 1000) / 10}% ${Math.round(focus.y * 1000) / 10}%`;

describe('pictures cropped around what was detected', () => {
  it(
    'keeps a portrait’s face on the camera card and the highlights hero, and a clip’s poster shows the person',
    async () => {
      session = await verifiedUserViaApi(baseUrl, dataDir, 'crops');
      await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: 'Portrait' });
      await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: 'Hallway' });
      await cameraUpload('Portrait', testMedia('person-obama-2.jpg'), 'image/jpeg', 'portrait.jpg');
      await cameraUpload('Hallway', testMedia('clip-person.mp4'), 'video/mp4', 'motion.mp4');
      const portrait = await analysedEvent('Portrait');
      expect(portrait.objects.map((o) => o.kind)).toContain('person');
      // The face is in the upper part of the picture: the crop moves up from the centre to keep it.
      expect(portrait.focus.y).toBeLessThan(0.45);

      const context = await signedInContext(browser, session, DESKTOP);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/cameras`);
      const card = page.locator('[data-testid="camera-card"][data-camera="Portrait"] img');
      await card.waitFor();
      await expect
        .poll(() => card.evaluate((img) => getComputedStyle(img).objectPosition))
        .toBe(position(portrait.focus));
      expect(await card.evaluate((img) => getComputedStyle(img).objectFit)).toBe('cover');

      // The clip's poster is its frame with the woman, not the empty room it starts with.
      const clip = await analysedEvent('Hallway');
      const hallway = page.locator('[data-testid="camera-card"][data-camera="Hallway"] img');
      await page.reload();
      await hallway.waitFor();
      const src = await hallway.getAttribute('src');
      const posterRes = await fetch(new URL(src!, baseUrl));
      expect(posterRes.headers.get('content-type')).toBe('image/jpeg');
      const poster = Buffer.from(await posterRes.arrayBuffer());
      expect(src).toContain('/poster-');
      expect(await difference(poster, await firstFrame())).toBeGreaterThan(4);
      expect(clip.focus).not.toEqual({ x: 0.5, y: 0.5 });

      // The chat's alerts crop the same way: the portrait's picture and the clip's poster (issue 31 point 10).
      await page.goto(`${baseUrl}/chat`);
      const portraitPath = new URL(portrait.thumbnail_image_url!, baseUrl).pathname;
      const bubblePicture = page
        .getByTestId('chat-message')
        .locator('figure img')
        .and(page.locator(`img[src*="${portraitPath}"]`));
      await bubblePicture.waitFor({ timeout: ANALYSED_TIMEOUT_MS });
      expect(await bubblePicture.evaluate((img) => getComputedStyle(img).objectFit)).toBe('cover');
      await expect
        .poll(() => bubblePicture.evaluate((img) => getComputedStyle(img).objectPosition))
        .toBe(position(portrait.focus));
      const bubbleClip = page.getByTestId('chat-message').locator('figure video');
      await bubbleClip.waitFor();
      expect(await bubbleClip.evaluate((video) => getComputedStyle(video).objectFit)).toBe('cover');
      await expect
        .poll(() => bubbleClip.evaluate((video) => getComputedStyle(video).objectPosition))
        .toBe(position(clip.focus));

      // Today's summary shows the portrait or the clip as its hero, cropped at that moment's focus.
      await page.goto(`${baseUrl}/highlights`);
      const hero = page.getByTestId('summary-hero').first();
      await hero.waitFor({ timeout: ANALYSED_TIMEOUT_MS });
      const path = (url: string | null) => new URL(url!, baseUrl).pathname;
      const heroPath = path(await hero.getAttribute('src'));
      const moment = [portrait, clip].find((a) => path(a.thumbnail_image_url) === heroPath);
      expect(moment, `the hero ${heroPath} is one of the events' pictures`).toBeDefined();
      expect(await hero.evaluate((img) => getComputedStyle(img).objectPosition)).toBe(
        position(moment!.focus),
      );
      await context.close();
    },
    ANALYSED_TIMEOUT_MS * 3,
  );
});

/** The first frame of clip-person.mp4 (the empty room), as the poster's size. */
async function firstFrame(): Promise<Buffer> {
  const { spawnSync } = await import('node:child_process');
  const serverRequire = createRequire(fileURLToPath(new URL('../../server/package.json', import.meta.url)));
  const bin = process.env.FFMPEG_PATH ?? (serverRequire('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const clip = fileURLToPath(new URL('../../../test-media/clip-person.mp4', import.meta.url));
  const r = spawnSync(
    bin,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      clip,
      '-frames:v',
      '1',
      '-vf',
      'format=yuvj420p',
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    {
      maxBuffer: 10_000_000,
    },
  );
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  return r.stdout;
}

/** Mean absolute difference of two pictures' pixels at one small size (0: the same picture). */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const small = (img: Buffer) => sharp(img).resize(64, 36, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}
