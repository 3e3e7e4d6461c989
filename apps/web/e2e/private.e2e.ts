import { readFileSync } from 'node:fs';
import {
  publishScene,
  startRtspServer,
  testMedia,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  e2eServer,
  launch,
  openPage,
  signedInContext,
  type ApiSession,
  verifiedUserViaApi,
} from './browser';

const { baseUrl, dataDir } = e2eServer();

const CAMERA = 'Gate';
// Two different pictures: the ingest takes a file sent again only once.
const BEFORE = readFileSync(testMedia('empty-driveway.jpg'));
const DURING = readFileSync(testMedia('empty-landscape.jpg'));

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

interface CameraAnswer {
  name: string;
  last_activity_date_time_utc: string | null;
  private_events_today: number;
}

/** What the camera does: one snapshot to the HTTP ingest with the user's camera upload login. */
async function cameraUpload(session: ApiSession, snapshot: Buffer): Promise<number> {
  const { data: login } = await apiCall<{ data: { username: string; password: string } }>(
    baseUrl,
    'GET',
    '/api/users/camera-email-credentials',
    session,
  );
  const form = new FormData();
  form.set('camera_name', CAMERA);
  form.append('file', new Blob([new Uint8Array(snapshot)], { type: 'image/jpeg' }), 'snap.jpg');
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  return res.status;
}

const gate = async (session: ApiSession) =>
  (await apiCall<{ data: CameraAnswer[] }>(baseUrl, 'GET', '/api/users/cameras', session)).data.find(
    (c) => c.name === CAMERA,
  );

describe('global private mode (issue 31, point 9)', () => {
  it('shows an upload camera as Private, not Receiving events, and counts what it did not keep today', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'private');
    await apiCall(baseUrl, 'POST', '/api/users/cameras', session, { name: CAMERA });
    expect(await cameraUpload(session, BEFORE)).toBe(202);
    await expect
      .poll(async () => (await gate(session))?.last_activity_date_time_utc, { timeout: 30_000 })
      .toBeTruthy();

    const context = await signedInContext(browser, session, DESKTOP);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/cameras`);
    const card = page.locator(`[data-testid="camera-card"][data-camera="${CAMERA}"]`);
    await card.getByTestId('camera-status').getByText('Receiving events').waitFor();

    await apiCall(baseUrl, 'POST', '/api/users/update-global-privacy-mode', session, {
      is_global_privacy_mode_enabled: true,
    });
    // Acknowledged like any upload, then dropped unkept: the camera's status says so.
    expect(await cameraUpload(session, DURING)).toBe(202);
    await expect.poll(async () => (await gate(session))?.private_events_today, { timeout: 30_000 }).toBe(1);

    await page.reload();
    await card.getByTestId('camera-status').getByText('Private', { exact: true }).waitFor();
    await card.getByText('Private: 1 event not kept today').waitFor();
    expect(await card.getByText('Receiving events').count()).toBe(0);
    await page.goto(`${baseUrl}/cameras/${CAMERA}`);
    await page.getByText('Private: 1 event not kept today').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a stream camera's own Live tab in private mode (issue 31, point 9)", () => {
  let rtsp: RtspTestServer;
  let publication: Publication;
  beforeAll(async () => {
    rtsp = await startRtspServer();
    publication = await publishScene(rtsp.url('/yard'), 'clock', { width: 320, height: 180, fps: 5 });
    await rtsp.waitForPublisher('/yard');
  });
  afterAll(async () => {
    await publication?.stop();
    await rtsp?.close();
  });

  it(
    'says Private, not "No snapshot yet", in global and in the camera\'s own private mode, in English and German',
    { timeout: 240_000 },
    async () => {
      const session = await verifiedUserViaApi(baseUrl, dataDir, 'private-stream');
      await apiCall(baseUrl, 'POST', '/api/users/cameras', session, {
        name: 'Yard',
        connection: { type: 'rtsp', url: rtsp.url('/yard') },
      });
      const yard = async () =>
        (
          await apiCall<{ data: { name: string; stream_status: string | null }[] }>(
            baseUrl,
            'GET',
            '/api/users/cameras',
            session,
          )
        ).data.find((c) => c.name === 'Yard');
      await expect.poll(async () => (await yard())?.stream_status, { timeout: 60_000 }).toBe('streaming');

      const context = await signedInContext(browser, session, DESKTOP);
      const { page, errors } = await openPage(context);
      const liveTab = page.getByRole('tabpanel');
      const expectPrivate = async (words: RegExp, not: string) => {
        await page.goto(`${baseUrl}/cameras/Yard`);
        await liveTab.getByText(words).first().waitFor();
        expect(await liveTab.getByText(not).count()).toBe(0);
      };

      await apiCall(baseUrl, 'POST', '/api/users/update-global-privacy-mode', session, {
        is_global_privacy_mode_enabled: true,
      });
      await expect.poll(async () => (await yard())?.stream_status).toBe('private');
      await expectPrivate(/Private/, 'No snapshot yet');

      await apiCall(baseUrl, 'POST', '/api/users/update-global-privacy-mode', session, {
        is_global_privacy_mode_enabled: false,
      });
      await expect.poll(async () => (await yard())?.stream_status, { timeout: 60_000 }).toBe('streaming');
      await apiCall(baseUrl, 'PUT', '/api/cameras/Yard/settings', session, { is_private_mode_enabled: true });
      await expect.poll(async () => (await yard())?.stream_status).toBe('private');
      await apiCall(baseUrl, 'POST', '/api/users/preferred-language', session, { preferred_language: 'de' });
      await page.evaluate(() => window.localStorage.setItem('homesitter.language', 'de'));
      await expectPrivate(/Privat/, 'Noch kein Schnappschuss');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the public camera test for a signed-in user (issue 31, point 5)', () => {
  it('offers no "Sign up" and leads back into the app', async () => {
    const session = await verifiedUserViaApi(baseUrl, dataDir, 'cameratest');
    const context = await signedInContext(browser, session, DESKTOP);
    const { page } = await openPage(context);
    // No helper on this machine, whatever else runs on it.
    await page.route('http://127.0.0.1:17429/**', (route) => route.abort());
    await page.goto(`${baseUrl}/camera-test`);
    const without = page.getByTestId('without-helper');
    await without.getByRole('heading', { name: 'No helper? Cameras that upload work too' }).waitFor();
    await without.getByRole('link', { name: 'How camera setup works' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign up' }).count()).toBe(0);
    // How to start the helper is said once, under its downloads.
    await page.getByText('Then open the downloaded file', { exact: false }).waitFor();
    expect(await page.getByText('Then open the downloaded file', { exact: false }).count()).toBe(1);
    expect(await without.getByText('Create your Homesitter account.').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Homesitter', exact: true }).getAttribute('href')).toBe('/');
    await context.close();
  });
});
