import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import {
  mainAndSub,
  startOnvifSimulator,
  startRtspServer,
  type OnvifSimulator,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { HelperCameraTestResult } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHelper } from '../src/helper.js';
import { startFakeServer, type FakeServer } from './support/fake-server.js';
import { postJson, startTestHelper, tempDir } from './support/harness.js';

const login = { username: 'admin', password: 'hunter2-secret' };

/** A port on 127.0.0.1 where nothing listens (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the camera test', () => {
  let fake: FakeServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let helper: RunningHelper;
  let rtsp: RtspTestServer;
  let publication: Publication;
  let onvif: OnvifSimulator;

  beforeAll(async () => {
    fake = await startFakeServer();
    dir = await tempDir();
    helper = await startTestHelper(dir.path, { HOMESITTER_URL: fake.url });
    rtsp = await startRtspServer({ auth: login });
    publication = await mainAndSub(rtsp, 'still');
    onvif = await startOnvifSimulator({
      ...login,
      rtspBase: `rtsp://127.0.0.1:${rtsp.port}`,
      manufacturer: 'Acme',
      model: 'Doorcam 2',
    });
  });
  afterAll(async () => {
    await helper?.stop();
    await onvif?.close();
    await publication?.stop();
    await rtsp?.close();
    await fake?.close();
    await dir?.remove();
  });

  const test = async (connection: unknown) => {
    const res = await postJson(`${helper.url}/cameras/test`, { connection });
    expect(res.status).toBe(200);
    return (await res.json()) as HelperCameraTestResult;
  };

  it('says an RTSP camera works, with a snapshot, its codec and resolution', async () => {
    const result = await test({ type: 'rtsp', url: rtsp.url('/main'), ...login });
    expect(result).toMatchObject({
      verdict: 'works',
      error_code: null,
      video: { codec: 'h264', width: 1280, height: 720, fps: null },
      sub_video: null,
      motion_source: 'frames',
    });
    expect(result.snapshot).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(result.elapsed_ms).toBeGreaterThan(0);
    expect(JSON.stringify(result)).not.toContain(login.password);
    // The test is between the helper and the camera: the server hears nothing of it.
    expect(fake.cameras.size).toBe(0);
  });

  it('reads an ONVIF camera: its device, main and sub streams and motion events', async () => {
    const result = await test({ type: 'onvif', host: onvif.host, port: onvif.port, ...login });
    expect(result).toMatchObject({
      verdict: 'works',
      device: { manufacturer: 'Acme', model: 'Doorcam 2' },
      video: { codec: 'h264', width: 1280, height: 720 },
      sub_video: { codec: 'h264', width: 640, height: 360 },
      motion_source: 'onvif',
    });
  });

  it('fails with wrong_credentials when the camera refuses the login', async () => {
    const result = await test({
      type: 'rtsp',
      url: rtsp.url('/main'),
      username: 'admin',
      password: 'wrong-one',
    });
    expect(result).toMatchObject({
      verdict: 'failed',
      error_code: 'wrong_credentials',
      message: 'The camera refused the username or password.',
      snapshot: null,
      video: null,
    });
    expect(JSON.stringify(result)).not.toContain('wrong-one');
  });

  it('fails with unreachable when nothing answers at the address', async () => {
    const port = await closedPort();
    const result = await test({ type: 'rtsp', url: `rtsp://127.0.0.1:${port}/stream1`, ...login });
    expect(result).toMatchObject({ verdict: 'failed', error_code: 'unreachable', snapshot: null });
  });

  it('never reaches outside the home network', async () => {
    const result = await test({ type: 'rtsp', url: 'rtsp://8.8.8.8:554/stream1' });
    expect(result).toMatchObject({ verdict: 'failed', error_code: 'network_not_allowed' });
    expect(result.message).toContain('home network');
  });
});
