import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  publishScene,
  startRtspServer,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { Activity, CameraDetail, CameraLive, ChatMessage, HelperJob } from '@homesitter/contract';
import { loadConfig, startHelper, type RunningHelper } from '@homesitter/helper';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { VisionEngine } from '../src/adapters/vision/vision.js';
import { person } from '../src/modules/analysis/analysis.test-support.js';
import { createTestApp, signUp, type TestApp, type TestUser } from './app.js';

/**
 * The desktop helper and the server together, both real: the helper signs in through its callback, finds
 * nothing it must guess (the camera's address is given, as after a scan), configures a camera on an RTSP
 * test server, and then either the server pulls it (a server at home) or the helper bridges it: its motion
 * clip becomes an activity and an alert, and live view reaches a browser through the helper's relay.
 */
const LOGIN = { username: 'cam', password: 'S3cret-pass' };
vi.setConfig({ testTimeout: 180_000 });

const seesPerson: VisionEngine = {
  kind: 'local',
  analyse: async () => ({ width: 640, height: 360, objects: [person()], faces: [] }),
  embedFaces: async () => [],
  close: async () => undefined,
};

let t: TestApp;
let base: string;
let rtsp: RtspTestServer;
let owner: TestUser;
const publications: Publication[] = [];
const helpers: { helper: RunningHelper; dir: string }[] = [];

beforeAll(async () => {
  rtsp = await startRtspServer({ auth: { ...LOGIN, scheme: 'digest' } });
  // The simulated cameras listen on loopback: a server "at home" with them lists it in CAMERA_NETWORKS itself.
  t = await createTestApp({ vision: seesPerson, env: { CAMERA_NETWORKS: '127.0.0.0/8' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await signUp(t);
  for (const [path, scene] of [
    ['/walk', 'person-walks-in'],
    ['/still', 'still'],
  ] as const) {
    publications.push(await publishScene(rtsp.url(path), scene, { width: 640, height: 360, fps: 10 }));
    await rtsp.waitForPublisher(path);
  }
}, 120_000);

afterAll(async () => {
  for (const { helper, dir } of helpers) {
    await helper.stop();
    await rm(dir, { recursive: true, force: true });
  }
  await t?.close();
  await Promise.all(publications.map((p) => p.stop()));
  await rtsp?.close();
});

async function startSignedInHelper(bridge: 'always' | 'auto'): Promise<RunningHelper> {
  const dir = await mkdtemp(join(tmpdir(), 'helper-bridge-'));
  const helper = await startHelper({
    config: loadConfig({
      HOMESITTER_URL: base,
      HELPER_PORT: '0',
      HELPER_CONFIG_DIR: dir,
      HELPER_BRIDGE: bridge,
      LOG_LEVEL: 'silent',
    }),
  });
  helpers.push({ helper, dir });
  // What the browser does: the helper's /sign-in leads to the app's sign-in page, whose redirect (the
  // helper's callback with its one-time state) receives the signed-in user's ID token.
  const start = await fetch(`${helper.url}/sign-in`, { redirect: 'manual' });
  const callback = new URL(new URL(start.headers.get('location')!).searchParams.get('redirect')!);
  callback.searchParams.set('token', owner.auth.authorization.replace(/^Bearer /, ''));
  const back = await fetch(callback, { redirect: 'manual' });
  expect(back.status, await back.text()).toBe(302);
  expect(back.headers.get('location')).toBe(`${base}/auth/success`);
  return helper;
}

async function configure(helper: RunningHelper, name: string, path: string): Promise<HelperJob> {
  const res = await fetch(`${helper.url}/cameras/configure`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      cameras: [
        { device_id: '127.0.0.1', name, connection: { type: 'rtsp', url: rtsp.url(path), ...LOGIN } },
      ],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  const { jobs } = (await res.json()) as { jobs: HelperJob[] };
  const id = jobs.find((j) => j.camera_name === name)!.id;
  let job: HelperJob | undefined;
  await until(async () => {
    const all = ((await (await fetch(`${helper.url}/jobs`)).json()) as { jobs: HelperJob[] }).jobs;
    job = all.find((j) => j.id === id);
    return job?.status === 'configured' || job?.status === 'failed';
  });
  return job!;
}

/** Polls what no single event tells from outside the server; no deadline but the test's. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 200));
}

const call = (method: 'GET' | 'POST', url: string, who: TestUser) =>
  t.app.inject({ method, url, headers: who.auth });

const getCamera = async (name: string) =>
  (await call('GET', `/api/users/cameras/${encodeURIComponent(name)}`, owner)).json<{ data: CameraDetail }>()
    .data;

const activitiesOf = async (name: string) =>
  (
    await call(
      'GET',
      `/api/users/activities?camera_name=${encodeURIComponent(name)}&page=1&pageSize=50`,
      owner,
    )
  ).json<{ data: Activity[] }>().data;

const history = async () =>
  (await call('GET', '/api/users/conversation-history?page=1&pageSize=50', owner)).json<{
    data: ChatMessage[];
  }>().data;

describe('a camera set up through the desktop helper', () => {
  it('is pulled by the server itself when the server is at home (auto)', async () => {
    const helper = await startSignedInHelper('auto');
    const job = await configure(helper, 'Shed', '/still');
    expect(job).toMatchObject({ status: 'configured', mode: 'server', error_code: null });
    const camera = await getCamera('Shed');
    expect(camera).toMatchObject({ connection_type: 'rtsp', configuration_status: 'configured' });
    await until(async () => (await getCamera('Shed')).stream_status === 'streaming');
  });

  it('is bridged by the helper: its motion clip becomes an activity and an alert, the login stays home', async () => {
    const helper = await startSignedInHelper('always');
    const job = await configure(helper, 'Garden', '/walk');
    expect(job).toMatchObject({ status: 'configured', mode: 'bridge', error_code: null });

    const camera = await getCamera('Garden');
    expect(camera).toMatchObject({ connection_type: 'helper', configuration_status: 'configured' });
    expect(JSON.stringify(camera)).not.toContain(LOGIN.password);

    await until(async () => (await activitiesOf('Garden')).some((a) => a.video_url));
    const [activity] = await activitiesOf('Garden');
    expect(activity).toMatchObject({ camera_name: 'Garden', video_url: expect.any(String) });
    await until(async () =>
      (await history()).some((m) => m.source_activity_uuid_list.includes(activity!.activity_uuid)),
    );
  });

  it('relays live view through the helper to a browser', async () => {
    await until(async () => (await getCamera('Garden')).stream_status === 'streaming');
    const res = await call('GET', '/api/users/cameras/Garden/live', owner);
    expect(res.statusCode, res.body).toBe(200);
    const live = res.json<{ data: CameraLive }>().data;
    expect(live.mse_url).toBeTruthy();

    const received = await new Promise<(Buffer | string)[]>((resolve, reject) => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}${live.mse_url!}`);
      const messages: (Buffer | string)[] = [];
      socket.on('message', (data, isBinary) => {
        const bytes = data as Buffer;
        if (!isBinary && (JSON.parse(bytes.toString()) as { type: string }).type === 'status') return;
        messages.push(isBinary ? bytes : bytes.toString());
        if (messages.length === 4) {
          socket.close();
          resolve(messages);
        }
      });
      socket.on('error', reject);
    });
    expect(JSON.parse(received[0] as string)).toMatchObject({ type: 'init', mime_type: expect.any(String) });
    expect((received[1] as Buffer).subarray(4, 8).toString()).toBe('ftyp');
    expect((received[2] as Buffer).subarray(4, 8).toString()).toBe('moof');
  });
});
