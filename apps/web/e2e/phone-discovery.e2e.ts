import { createSocket } from 'node:dgram';
import { createNodeTransport } from '@homesitter/cameras';
import { startSimulatedCameras, type SimulatedCameras } from '@homesitter/cameras/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  e2eServer,
  launch,
  openPage,
  seriousViolations,
  signUpInBrowser,
  uniqueEmail,
  verifyByMail,
} from './browser';

/**
 * Finding cameras with the phone itself (issue 33), as the iOS and Android apps do it, in the browser build at
 * a phone's size: the page gets the Node twin of the `LanDiscovery` plugin through the test-only switch
 * `window.__homesitterLanDiscovery` (each call runs here, in Node), scans a simulated Wi-Fi of ONVIF cameras
 * on 127.0.4.0/28 by unicast WS-Discovery from 127.0.4.1, tests a camera, and has the real server of the
 * suite pull and configure them. No desktop helper runs.
 */
const { baseUrl, dataDir } = e2eServer();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const LOGIN = { username: 'admin', password: 'e2e-phone-pass' };
const PHONE_ADDRESS = '127.0.4.1';
/** A scan lasts up to docs/product.md §9's 60 s; setting a camera up about 30 s. */
const SCAN_MS = 75_000;
const CONFIGURE_MS = 120_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let cameras: SimulatedCameras;
let wsDiscoveryPort: number;
/** The Wi-Fi the simulated phone reports; off at first. */
let wifi: { connected: boolean; address?: string; prefix?: number } = { connected: false };

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

const device = (address: string) => page.locator(`[data-testid="found-device"][data-address="${address}"]`);

beforeAll(async () => {
  wsDiscoveryPort = await freeUdpPort();
  cameras = await startSimulatedCameras({
    count: 2,
    firstAddress: '127.0.4.2',
    wsDiscoveryPort,
    credentials: LOGIN,
    media: true,
  });
  const transport = createNodeTransport();
  const calls: Record<string, (request: never) => Promise<unknown>> = {
    udpProbe: (request) => transport.udpProbe(request),
    tcpCheck: (request) => transport.tcpCheck(request),
    http: (request) => transport.http(request),
    rtsp: (request) => transport.rtsp(request),
    wifiInfo: async () => wifi,
  };
  browser = await launch();
  context = await browser.newContext(PHONE);
  await context.exposeFunction('__homesitterLanCall', (method: string, request: never) =>
    calls[method]!(request),
  );
  await context.addInitScript(
    (testScan) => {
      const call = (method: string) => (request?: unknown) =>
        (
          window as unknown as { __homesitterLanCall: (m: string, r: unknown) => Promise<unknown> }
        ).__homesitterLanCall(method, request);
      (window as unknown as Record<string, unknown>).__homesitterLanDiscovery = {
        udpProbe: call('udpProbe'),
        tcpCheck: call('tcpCheck'),
        http: call('http'),
        rtsp: call('rtsp'),
        wifiInfo: call('wifiInfo'),
        testScan,
      };
    },
    {
      rtspPorts: [cameras.rtspPort],
      httpPorts: [cameras.onvifPort],
      // Unicast as an iPhone probes, from the phone's own loopback address.
      wsDiscovery: { mode: 'unicast', port: wsDiscoveryPort, localAddress: PHONE_ADDRESS },
    },
  );
  ({ page, errors } = await openPage(context));
});
afterAll(async () => {
  await browser?.close();
  await cameras?.stop();
});

describe('finding cameras with the phone itself', () => {
  it('explains the local network first, and says how to join a Wi-Fi when the phone is on none', async () => {
    const email = uniqueEmail('phone-discovery');
    await signUpInBrowser(page, baseUrl, email);
    await verifyByMail(page, dataDir, email);

    await page.goto(`${baseUrl}/cameras/add/network`);
    await page.getByRole('heading', { name: 'Let this phone find your cameras' }).waitFor();
    // The helper's flow is not shown: nothing to download or start.
    expect(await page.getByRole('heading', { name: 'Download the helper' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'The Homesitter helper is not running' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start scan' }).click();
    await page.waitForURL('**/cameras/add/network?step=scan');
    await page.getByRole('heading', { name: 'Access to your home network' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Continue and scan' }).click();
    await page.getByRole('heading', { name: 'This phone is not on a Wi-Fi' }).waitFor();
    await page.getByText('Open Settings › Wi-Fi, join your home network, then scan again.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it(
    'scans the Wi-Fi, tests a camera with its login and has the server set both up',
    async () => {
      wifi = { connected: true, address: PHONE_ADDRESS, prefix: 28 };
      await page.getByRole('button', { name: 'Scan again' }).click();
      for (const camera of cameras.cameras) await device(camera.address).waitFor({ timeout: SCAN_MS });
      for (const camera of cameras.cameras) await device(camera.address).locator('input').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL('**/cameras/add/network?step=login');

      const shared = page.getByRole('group', { name: 'Login for all cameras' });
      await shared.getByLabel('Username').fill(LOGIN.username);
      await shared.getByLabel('Password').fill(LOGIN.password);
      const first = page.locator(
        `[data-testid="camera-login"][data-address="${cameras.cameras[0]!.address}"]`,
      );
      await first.getByRole('button', { name: /^Test / }).click();
      const result = first.getByTestId('camera-test-result');
      await result.waitFor({ timeout: 90_000 });
      expect(await result.getAttribute('data-verdict')).toBe('works');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.getByRole('heading', { name: 'Summary' }).waitFor();
      const names: string[] = [];
      for (const camera of cameras.cameras) {
        names.push(await page.getByLabel(`Name of the camera at ${camera.address}`).inputValue());
      }
      expect(new Set(names).size).toBe(cameras.cameras.length);
      await page.getByRole('button', { name: 'Set up 2 cameras' }).click();

      await page.getByRole('heading', { name: 'Setting up' }).waitFor();
      for (const name of names) {
        await page
          .locator(`[data-testid="phone-camera"][data-camera="${name}"][data-status="configured"]`)
          .waitFor({ timeout: CONFIGURE_MS });
      }
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.waitForURL('**/cameras');
      for (const name of names) {
        await page.locator(`[data-testid="camera-card"][data-camera="${name}"]`).waitFor();
      }
      expect(errors).toEqual([]);
    },
    SCAN_MS + 90_000 + CONFIGURE_MS,
  );
});
