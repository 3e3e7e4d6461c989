import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  e2eServer,
  launch,
  MOBILE,
  openPage,
  PASSWORD,
  verifiedUserViaApi,
  type ApiSession,
} from './browser';

// The built app inside a simulated native shell: before the page loads, a fake of what Capacitor's
// native bridge puts in the web view (`window.androidBridge` or `webkit.messageHandlers.bridge`, and
// `window.Capacitor` with the plugin headers, `nativePromise` and `nativeCallback`) answers the plugins'
// calls, records them, and lets the test fire the plugins' events (a tapped push, the back button, a link).

const { baseUrl, dataDir } = e2eServer();
const CAMERA = 'Porch';

type Session = ApiSession;

interface NativeCall {
  plugin: string;
  method: string;
  options: Record<string, unknown> | undefined;
}

interface NativeFake {
  calls: NativeCall[];
  fire: (plugin: string, event: string, data: unknown) => void;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const call = <T>(method: string, url: string, session: Session | null, body?: unknown) =>
  apiCall<T>(baseUrl, method, url, session, body);

const verifiedUser = () => verifiedUserViaApi(baseUrl, dataDir, 'native');

/** The fake native bridge, run in the page before any of its scripts (so no closures: plain data in). */
function installNativeBridge(options: { platform: 'android' | 'ios'; token: string }) {
  const w = window as unknown as Record<string, unknown>;
  if (options.platform === 'android') w.androidBridge = { postMessage: () => undefined };
  else w.webkit = { messageHandlers: { bridge: { postMessage: () => undefined } } };
  const calls: { plugin: string; method: string; options: unknown }[] = [];
  const listeners = new Map<string, ((data: unknown) => void)[]>();
  let nextId = 1;
  const fire = (plugin: string, event: string, data: unknown) => {
    for (const listener of listeners.get(`${plugin}:${event}`) ?? []) listener(data);
  };
  w.__nativeFake = { calls, fire };
  const header = (name: string, promises: string[]) => ({
    name,
    methods: [
      ...['removeListener', 'removeAllListeners', ...promises].map((m) => ({ name: m, rtype: 'promise' })),
      { name: 'addListener', rtype: 'callback' },
    ],
  });
  w.Capacitor = {
    isNativePlatform: () => true,
    getPlatform: () => options.platform,
    PluginHeaders: [
      header('App', ['exitApp', 'getLaunchUrl', 'getState']),
      header('PushNotifications', ['checkPermissions', 'requestPermissions', 'register', 'unregister']),
      header('StatusBar', ['setOverlaysWebView', 'setStyle', 'setBackgroundColor', 'getInfo']),
      header('Keyboard', ['hide', 'show']),
      header('VideoPlayer', ['initPlayer', 'stopAllPlayers']),
      header('Filesystem', ['downloadFile', 'getUri', 'deleteFile']),
      header('Share', ['share', 'canShare']),
      header('Media', ['saveVideo', 'getAlbums', 'createAlbum']),
    ],
    nativePromise(plugin: string, method: string, opts: unknown) {
      calls.push({ plugin, method, options: opts });
      if (
        plugin === 'PushNotifications' &&
        (method === 'checkPermissions' || method === 'requestPermissions')
      )
        return Promise.resolve({ receive: 'granted' });
      if (plugin === 'PushNotifications' && method === 'register') {
        setTimeout(() => fire('PushNotifications', 'registration', { value: options.token }), 0);
      }
      if (method === 'initPlayer')
        return Promise.resolve({ result: true, method: 'initPlayer', value: true });
      return Promise.resolve({});
    },
    nativeCallback(
      plugin: string,
      method: string,
      opts: { eventName?: string },
      callback: (data: unknown) => void,
    ) {
      calls.push({ plugin, method, options: opts });
      if (method === 'addListener' && opts?.eventName) {
        const key = `${plugin}:${opts.eventName}`;
        listeners.set(key, [...(listeners.get(key) ?? []), callback]);
      }
      return String(nextId++);
    },
  };
}

async function nativeContext(
  session: Session | null,
  options: { platform?: 'android' | 'ios'; token?: string; device?: object } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options.device ?? MOBILE);
  await context.addInitScript(installNativeBridge, {
    platform: options.platform ?? 'android',
    token: options.token ?? `fcm-e2e-${Date.now()}`,
  });
  if (session) {
    // A session of its own for each app (a new sign-in): refresh tokens rotate, and one an earlier app already
    // used would be taken for a stolen one, ending every session of its family.
    const own = await call<Session>('POST', '/api/auth/sign-in', null, {
      email: session.user.email,
      password: PASSWORD,
    });
    const stored = {
      idToken: own.idToken,
      refreshToken: own.refreshToken,
      expiresAt: Date.now() + own.expiresIn * 1000,
      user: own.user,
    };
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('homesitter.session'))
        window.localStorage.setItem('homesitter.session', value);
    }, JSON.stringify(stored));
  }
  return context;
}

const nativeCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __nativeFake: NativeFake }).__nativeFake.calls);

const fire = (page: Page, plugin: string, event: string, data: unknown) =>
  page.evaluate(
    ([p, e, d]) => (window as unknown as { __nativeFake: NativeFake }).__nativeFake.fire(p, e, d),
    [plugin, event, data] as const,
  );

/** The shell has started once its listeners are there (the plugins load after the first render). */
async function shellStarted(page: Page) {
  await expect
    .poll(async () =>
      (await nativeCalls(page)).filter((c) => c.method === 'addListener').map((c) => c.options?.eventName),
    )
    .toEqual(expect.arrayContaining(['backButton', 'appUrlOpen', 'pushNotificationActionPerformed']));
}

function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const serverRequire = createRequire(fileURLToPath(new URL('../../server/package.json', import.meta.url)));
  return (serverRequire('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** A JPEG snapshot the way a camera would send it. */
function snapshot(): Buffer {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hs-e2e-native-')), 'snap.jpg');
  const r = spawnSync(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=1',
    '-frames:v',
    '1',
    file,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  return readFileSync(file);
}

async function cameraEvent(session: Session): Promise<string> {
  await call('POST', '/api/users/cameras', session, { name: CAMERA });
  const { data: login } = await call<{ data: { username: string; password: string } }>(
    'GET',
    '/api/users/camera-email-credentials',
    session,
  );
  const form = new FormData();
  form.set('camera_name', CAMERA);
  form.append('file', new Blob([new Uint8Array(snapshot())], { type: 'image/jpeg' }), 'motion.jpg');
  const res = await fetch(`${baseUrl}/api/ingest/events`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status).toBe(202);
  let uuid: string | undefined;
  await expect
    .poll(
      async () => {
        const { data } = await call<{ data: { activity_uuid: string }[] }>(
          'GET',
          `/api/users/activities?camera_name=${CAMERA}`,
          session,
        );
        uuid = data[0]?.activity_uuid;
        return uuid;
      },
      { timeout: 30_000 },
    )
    .toBeDefined();
  return uuid!;
}

describe('the app inside the native shell', () => {
  let session: Session;

  it('registers for push 1.5 s after sign-in: permission, register, verify, then the token to the server', async () => {
    session = await verifiedUser();
    const token = `fcm-e2e-${Date.now()}`;
    const context = await nativeContext(session, { token });
    const { page, errors } = await openPage(context);
    const verify = page.waitForRequest((r) => r.url().endsWith('/api/users/verify-push-token'));
    const register = page.waitForRequest((r) => r.url().endsWith('/api/users/push-notification-token'));
    await page.goto(`${baseUrl}/highlights`);
    expect((await verify).postDataJSON()).toEqual({ token, platform: 'android' });
    expect((await register).postDataJSON()).toEqual({ token, platform: 'android', is_sandbox: false });
    const methods = (await nativeCalls(page))
      .filter((c) => c.plugin === 'PushNotifications')
      .map((c) => c.method);
    expect(methods).toEqual(expect.arrayContaining(['checkPermissions', 'register']));
    // The server now knows the device.
    await expect
      .poll(async () => {
        const res = await call<{ data: { isValid: boolean } }>(
          'POST',
          '/api/users/verify-push-token',
          session,
          {
            token,
            platform: 'android',
          },
        );
        return res.data.isValid;
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('aborts sign-out with an error when the token cannot be disabled, and signs out once it can', async () => {
    // A user of its own: signing out revokes the session's refresh token, which the other tests go on using.
    const own = await verifiedUser();
    const context = await nativeContext(own, { device: DESKTOP, token: `fcm-e2e-signout-${Date.now()}` });
    const { page, errors } = await openPage(context);
    const registered = page.waitForRequest((r) => r.url().endsWith('/api/users/push-notification-token'));
    await page.goto(`${baseUrl}/highlights`);
    await registered;
    await page.route('**/api/users/push-notification-token/disable', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'Service unavailable', code: 'unavailable' }),
      }),
    );
    const signOut = async () => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('dialog', { name: 'Sign out?' }).getByRole('button', { name: 'Sign out' }).click();
    };
    await signOut();
    await page.getByText('Could not turn off notifications for this device.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/highlights');
    expect(await page.evaluate(() => window.localStorage.getItem('homesitter.session'))).not.toBeNull();

    await page.unroute('**/api/users/push-notification-token/disable');
    const disabled = page.waitForResponse((r) =>
      r.url().endsWith('/api/users/push-notification-token/disable'),
    );
    await page.keyboard.press('Escape');
    await signOut();
    expect((await disabled).status()).toBe(200);
    await page.waitForURL('**/auth');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the event of a tapped ACTIVITY_ALERT and highlights a tapped CHAT_MESSAGE in the chat', async () => {
    const activity = await cameraEvent(session);
    const context = await nativeContext(session);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/highlights`);
    await shellStarted(page);
    await fire(page, 'PushNotifications', 'pushNotificationActionPerformed', {
      actionId: 'tap',
      notification: { id: '1', data: { notification_type: 'ACTIVITY_ALERT', activity_uuid: activity } },
    });
    await page.waitForURL(`**/chat?activity=${activity}`);
    await page.getByRole('dialog', { name: new RegExp(`^${CAMERA}`) }).waitFor();

    await page.keyboard.press('Escape');

    const { data: message } = await call<{ data: { message_uuid: string } }>(
      'POST',
      '/api/users/messages',
      session,
      {
        text: 'Was the parcel delivered?',
      },
    );
    await fire(page, 'PushNotifications', 'pushNotificationActionPerformed', {
      actionId: 'tap',
      notification: {
        id: '3',
        data: { notification_type: 'CHAT_MESSAGE', chat_message_id: message.message_uuid },
      },
    });
    await page.locator(`[id="message-${message.message_uuid}"][data-highlighted="true"]`).waitFor();

    // A push arriving while the app is open is a toast, not a system banner.
    await fire(page, 'PushNotifications', 'pushNotificationReceived', {
      id: '2',
      title: 'Front door',
      body: 'Someone is at the door',
      data: {},
    });
    await page.getByText('Front door: Someone is at the door').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('goes back with the hardware back button and exits the app at the start of the history', async () => {
    const context = await nativeContext(session);
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/highlights`);
    await shellStarted(page);
    await page.getByRole('link', { name: 'Cameras' }).first().click();
    await page.waitForURL('**/cameras');
    await fire(page, 'App', 'backButton', { canGoBack: true });
    await page.waitForURL('**/highlights');
    expect((await nativeCalls(page)).some((c) => c.method === 'exitApp')).toBe(false);
    await fire(page, 'App', 'backButton', { canGoBack: false });
    await expect.poll(async () => (await nativeCalls(page)).some((c) => c.method === 'exitApp')).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/highlights');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens homesitter://saveImage in the chat with the image ready to send; other links are ignored', async () => {
    const context = await nativeContext(session);
    const { page, errors } = await openPage(context);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.goto(`${baseUrl}/highlights`);
    await shellStarted(page);
    await page.getByRole('link', { name: 'Cameras' }).first().click();
    await page.waitForURL('**/cameras');
    const before = await page.evaluate(() => window.history.length);

    await fire(page, 'App', 'appUrlOpen', {
      url: 'homesitter://other?imageUrl=https%3A%2F%2Fexample.com%2Fa.jpg',
    });
    await fire(page, 'App', 'appUrlOpen', { url: 'homesitter://saveImage' });
    await expect
      .poll(() => warnings.some((w) => w.includes('saveImage deep link without an imageUrl')))
      .toBe(true);
    expect(new URL(page.url()).pathname).toBe('/cameras');

    const image = `${baseUrl}/favicon.svg`;
    await fire(page, 'App', 'appUrlOpen', {
      url: `homesitter://saveImage?imageUrl=${encodeURIComponent(image)}`,
    });
    await page.waitForURL('**/chat');
    // The chat replaced the screen the link arrived on.
    expect(await page.evaluate(() => window.history.length)).toBe(before);
    expect(await page.evaluate(() => window.sessionStorage.getItem('homesitter.pendingImageUrl'))).toBe(
      image,
    );
    await page.locator(`img[src="${image}"]`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a focused field above the Android keyboard and scrolls back after it', async () => {
    const context = await nativeContext(null, {
      device: { ...MOBILE, viewport: { width: 375, height: 480 } },
    });
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/auth`);
    await shellStarted(page);
    const field = page.getByLabel('Password', { exact: true });
    await field.waitFor();
    // Start with the field visible in the lower part of the screen, where the keyboard opens (the sign-up page
    // says what the product does above its form, so the field may start below the fold).
    const start = await field.evaluate((el) => {
      const { bottom } = el.getBoundingClientRect();
      window.scrollTo(0, Math.max(0, window.scrollY + bottom - 480 * 0.85));
      return window.scrollY;
    });
    const box = await field.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(480 * 0.6);
    expect(box!.y + box!.height).toBeLessThanOrEqual(480);
    await field.focus();
    await expect
      .poll(() => field.evaluate((el) => Math.round(el.getBoundingClientRect().bottom)))
      .toBeLessThanOrEqual(Math.ceil(480 * 0.6) + 1);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(start);
    await field.evaluate((el) => (el as HTMLElement).blur());
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(start);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offsets the page by the status bar (Android 48 px, iOS the safe area or 44 px) and hides the store links', async () => {
    for (const platform of ['android', 'ios'] as const) {
      const context = await nativeContext(null, { platform });
      const { page, errors } = await openPage(context);
      await page.goto(`${baseUrl}/auth`);
      await page.getByLabel('Email').waitFor();
      const safeTop = () =>
        page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--safe-top').trim());
      await expect.poll(safeTop).toBe(platform === 'android' ? '48px' : '44px');
      // Measured again on resize (rotation) and on the recalc event: a stale value is put back each time.
      const spoil = () =>
        page.evaluate(() => document.documentElement.style.setProperty('--safe-top', '1px'));
      await spoil();
      await page.setViewportSize({ width: 812, height: 375 });
      await expect.poll(safeTop).toBe(platform === 'android' ? '48px' : '44px');
      await spoil();
      await page.evaluate(() => window.dispatchEvent(new Event('homesitter:safe-area-recalc')));
      expect(await safeTop()).toBe(platform === 'android' ? '48px' : '44px');
      expect(await page.getByRole('navigation', { name: 'Get the mobile app' }).count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }
    // The web shows them.
    const web = await browser.newContext(MOBILE);
    const { page } = await openPage(web);
    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('navigation', { name: 'Get the mobile app' }).waitFor();
    expect(
      await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--safe-top').trim(),
      ),
    ).toBe('0px');
    await web.close();
  });
});
