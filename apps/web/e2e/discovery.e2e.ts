import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulatedCameras, type SimulatedCameras } from '@homesitter/cameras/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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

/**
 * Finding cameras through the desktop helper, as the owner does it: the real helper (`apps/helper`, started
 * here as `npm run helper` would) on 127.0.0.1:17429, pointed at simulated ONVIF cameras on 127.0.0.2… (each
 * with an ONVIF service, an RTSP stream and a WS-Discovery responder), and the real server of the suite.
 * First nothing listens (the helper-not-running screens), then the helper starts, is signed in from the
 * browser, scans, and sets the cameras up; the public camera test tries one of them.
 */
const { baseUrl, dataDir } = e2eServer();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const HELPER_URL = 'http://127.0.0.1:17429';
const LOGIN = { username: 'admin', password: 'e2e-cam-pass' };
/** A scan lasts up to docs/product.md §9's 60 s; setting a camera up about 30 s. */
const SCAN_MS = 75_000;
const CONFIGURE_MS = 120_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let cameras: SimulatedCameras;
let helper: ChildProcess | undefined;
let helperConfigDir: string;
let email: string;

function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

async function helperAnswers(): Promise<boolean> {
  try {
    return (await fetch(`${HELPER_URL}/status`)).ok;
  } catch {
    return false;
  }
}

/** Starts the helper from its source with the settings the test network needs, and waits for /status. */
async function startHelperProcess(wsDiscoveryPort: number): Promise<ChildProcess> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/helper/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HELPER_PORT: '17429',
      HOMESITTER_URL: baseUrl,
      HELPER_CONFIG_DIR: helperConfigDir,
      // Only the simulated network: WS-Discovery on loopback to its port, and a scan of its addresses and ports.
      HELPER_DISCOVERY_PORT: String(wsDiscoveryPort),
      HELPER_DISCOVERY_INTERFACES: '127.0.0.1',
      HELPER_SCAN_SUBNETS: '127.0.0.0/29',
      HELPER_SCAN_RTSP_PORTS: String(cameras.rtspPort),
      HELPER_SCAN_HTTP_PORTS: String(cameras.onvifPort),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the helper exited with ${child.exitCode}`);
    if (await helperAnswers()) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the helper did not answer on 127.0.0.1:17429 within 60 s');
}

async function stopHelperProcess() {
  const child = helper;
  helper = undefined;
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

const device = (address: string) => page.locator(`[data-testid="found-device"][data-address="${address}"]`);
const job = (name: string) => page.locator(`[data-testid="job"][data-camera="${name}"]`);

let wsDiscoveryPort: number;

beforeAll(async () => {
  if (await helperAnswers()) {
    throw new Error('Something already answers on 127.0.0.1:17429 (a helper?): stop it to run this suite');
  }
  helperConfigDir = mkdtempSync(path.join(tmpdir(), 'homesitter-helper-e2e-'));
  wsDiscoveryPort = await freeUdpPort();
  cameras = await startSimulatedCameras({
    count: 2,
    unsupported: 1,
    wsDiscoveryPort,
    credentials: LOGIN,
    media: true,
  });
  browser = await launch();
  context = await browser.newContext(DESKTOP);
  ({ page, errors } = await openPage(context));
});
afterAll(async () => {
  await browser?.close();
  await stopHelperProcess();
  await cameras?.stop();
  if (helperConfigDir) rmSync(helperConfigDir, { recursive: true, force: true });
});

describe('finding cameras with the desktop helper', () => {
  it('says the helper is not running when nothing listens, on the flow and on the public camera test', async () => {
    email = uniqueEmail('discovery');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);

    await page.goto(`${baseUrl}/cameras/add`);
    await page.getByRole('link', { name: /Find cameras on my network/ }).click();
    await page.waitForURL('**/cameras/add/network');
    await page.getByRole('heading', { name: 'The Homesitter helper is not running' }).waitFor();
    // The server's build for the OS it runs on (made by the first download), and the others named.
    await page.getByRole('heading', { name: 'Download the helper' }).waitFor();
    const ownName = `homesitter-helper-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;
    const own = page.locator(`a[href$="/api/helper/downloads/${ownName}"]`);
    await own.waitFor();
    expect(await page.getByText(/^Not on this server: /).count()).toBe(1);
    expect(await page.getByText('npm run helper').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), own.click()]);
    expect(download.suggestedFilename()).toBe(ownName);
    const saved = path.join(helperConfigDir, ownName);
    await download.saveAs(saved);
    // A whole Node single executable (the server test runs one), not an error page.
    expect(statSync(saved).size).toBeGreaterThan(10_000_000);
    rmSync(saved);

    await page.goto(`${baseUrl}/camera-test`);
    await page.getByRole('heading', { name: 'The Homesitter helper is not running' }).waitFor();
    await page.getByRole('heading', { name: 'No helper? Cameras that upload work too' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('moves on by itself once the helper starts, and signs the helper in from a second tab', async () => {
    await page.goto(`${baseUrl}/cameras/add/network`);
    await page.getByRole('heading', { name: 'The Homesitter helper is not running' }).waitFor();
    helper = await startHelperProcess(wsDiscoveryPort);

    const signIn = page.getByRole('link', { name: /Sign the helper in/ });
    await signIn.waitFor({ timeout: 15_000 });
    const [tab] = await Promise.all([context.waitForEvent('page'), signIn.click()]);
    await tab.getByRole('button', { name: `Continue as ${email}` }).click();
    await tab.waitForURL('**/auth/success');
    await tab.getByRole('heading', { name: 'The helper is signed in' }).waitFor();
    await tab.close();

    await page.getByText(`It is signed in as ${email}.`).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Start scan' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it(
    'scans: the cameras appear, the device that is no camera is greyed out with its reason',
    async () => {
      await page.getByRole('button', { name: 'Start scan' }).click();
      await page.waitForURL('**/cameras/add/network?step=scan');
      for (const camera of cameras.cameras) await device(camera.address).waitFor({ timeout: SCAN_MS });
      const other = device(cameras.unsupported[0]!.address);
      await other.waitFor({ timeout: SCAN_MS });
      expect(await other.locator('input').isDisabled()).toBe(true);
      await other.getByText(/Not supported/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      for (const camera of cameras.cameras) await device(camera.address).locator('input').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL('**/cameras/add/network?step=login');
    },
    SCAN_MS + 30_000,
  );

  it(
    'takes one login for all, names the cameras and sets them up until they are ready',
    async () => {
      const shared = page.getByRole('group', { name: 'Login for all cameras' });
      await shared.getByLabel('Username').fill(LOGIN.username);
      await shared.getByLabel('Password').fill(LOGIN.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Summary' }).waitFor();

      const names: string[] = [];
      for (const camera of cameras.cameras) {
        names.push(await page.getByLabel(`Name of the camera at ${camera.address}`).inputValue());
      }
      expect(new Set(names).size).toBe(cameras.cameras.length);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Set up 2 cameras' }).click();

      await page.getByRole('heading', { name: 'Setting up' }).waitFor();
      for (const name of names) {
        await job(name).locator('[data-testid="job-status"][data-status="configured"]').waitFor({
          timeout: CONFIGURE_MS,
        });
      }
      await page.getByText('2 of 2 cameras ready.').waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.waitForURL('**/cameras');
      for (const name of names) {
        await page.locator(`[data-testid="camera-card"][data-camera="${name}"]`).waitFor();
      }
      expect(errors).toEqual([]);
    },
    CONFIGURE_MS + 30_000,
  );

  it(
    'tests a camera on the public camera test and says it works with Homesitter',
    async () => {
      await page.goto(`${baseUrl}/camera-test`);
      await page.getByRole('button', { name: 'Scan my network' }).click();
      const camera = cameras.cameras[0]!;
      await device(camera.address).waitFor({ timeout: SCAN_MS });
      await device(camera.address).locator('input').check();
      await page.getByRole('button', { name: 'Continue with this camera' }).click();
      const form = page.getByRole('form', { name: 'Camera to test' });
      await form.getByLabel('Username').fill(LOGIN.username);
      await form.getByLabel('Password').fill(LOGIN.password);
      await form.getByRole('button', { name: 'Test the camera' }).click();

      const result = page.getByTestId('camera-test-result');
      await result.waitFor({ timeout: 90_000 });
      expect(await result.getAttribute('data-verdict')).toBe('works');
      await result.getByText('Works with Homesitter').waitFor();
      await result.getByRole('img', { name: /^Picture from / }).waitFor();
      await result
        .getByText(/^H264 · \d+×\d+/)
        .first()
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
    SCAN_MS + 120_000,
  );
});
