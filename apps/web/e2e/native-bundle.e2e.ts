import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { e2eServer, mailedLink, MOBILE, openPage, PASSWORD, uniqueEmail } from './browser';

// The phone apps' real set-up (docs/mobile.md): the web app bundled with the server's address baked in
// (`VITE_SERVER_URL`, as `npm run mobile:sync` builds it), shown from Capacitor's Android origin
// https://localhost (answered here by Playwright from the build), inside a minimal simulated native shell,
// calling the real server on another origin: API calls and the realtime hub must get through its CORS.

const { baseUrl, dataDir } = e2eServer();
const APP_ORIGIN = 'https://localhost';
const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let browser: Browser;
let bundle: string;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

beforeAll(async () => {
  bundle = mkdtempSync(path.join(tmpdir(), 'hs-e2e-bundle-'));
  const require = createRequire(import.meta.url);
  const vitePackage = require.resolve('vite/package.json', { paths: [app] });
  const vite = path.join(
    path.dirname(vitePackage),
    (require(vitePackage) as { bin: { vite: string } }).bin.vite,
  );
  const built = spawnSync(process.execPath, [vite, 'build', '--outDir', bundle, '--emptyOutDir'], {
    cwd: app,
    env: { ...process.env, VITE_SERVER_URL: baseUrl },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);
  // The page's origin is answered by Playwright, not by a server, so Chromium counts it as a public site
  // and its Local Network Access checks would block calls to the test server on loopback; in the phone
  // apps the page is the web view's own, and the server is where the phone reaches it.
  const options = await chromiumLaunchOptions();
  browser = await chromium.launch({
    ...options,
    args: [
      ...(options.args ?? []),
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  if (bundle) rmSync(bundle, { recursive: true, force: true });
});

async function json<T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Session {
  idToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { uid: string; email: string };
}

async function verifiedUser(): Promise<Session> {
  const email = uniqueEmail('bundle');
  const first = await json<Session>('POST', '/api/auth/sign-up', null, { email, password: PASSWORD });
  const code = new URL(await mailedLink(dataDir, email, 'verify-email')).searchParams.get('code');
  await json('POST', '/api/auth/verify-email', null, { code });
  const session = await json<Session>('POST', '/api/auth/token', null, { refreshToken: first.refreshToken });
  await json('POST', '/api/users', session.idToken, { timezone: 'Europe/Berlin' });
  return session;
}

/** A native shell that only says "native" and answers every plugin call with nothing. */
function installMinimalBridge() {
  const w = window as unknown as Record<string, unknown>;
  w.androidBridge = { postMessage: () => undefined };
  let nextId = 1;
  w.Capacitor = {
    isNativePlatform: () => true,
    getPlatform: () => 'android',
    PluginHeaders: [],
    nativePromise: () => Promise.resolve({}),
    nativeCallback: () => String(nextId++),
  };
}

async function openBundledApp(session: Session): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext(MOBILE);
  await context.route(`${APP_ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    let file = path.join(bundle, decodeURIComponent(pathname));
    if (!file.startsWith(bundle) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(bundle, 'index.html');
    await route.fulfill({
      status: 200,
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      body: readFileSync(file),
    });
  });
  await context.addInitScript(installMinimalBridge);
  await context.addInitScript(
    (value) => {
      if (!window.localStorage.getItem('homesitter.session'))
        window.localStorage.setItem('homesitter.session', value);
    },
    JSON.stringify({
      idToken: session.idToken,
      refreshToken: session.refreshToken,
      expiresAt: Date.now() + session.expiresIn * 1000,
      user: session.user,
    }),
  );
  return openPage(context);
}

describe('the bundled phone app against a server on another origin', () => {
  it('calls the API and the realtime hub on the server, allowed by CORS', async () => {
    const session = await verifiedUser();
    const { page, errors } = await openBundledApp(session);
    const profile = page.waitForResponse((r) => r.url().startsWith(`${baseUrl}/api/users/profile`));
    const socket = page.waitForEvent('websocket', (ws) => ws.url().includes('/api/realtime'));
    await page.goto(`${APP_ORIGIN}/chat`);

    const answer = await profile;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect((await socket).url()).toMatch(new RegExp(`^${baseUrl.replace(/^http/, 'ws')}/api/realtime`));
    expect(new URL(page.url()).origin).toBe(APP_ORIGIN);
    await expect.poll(() => errors).toEqual([]);
    await page.context().close();
  });
});
