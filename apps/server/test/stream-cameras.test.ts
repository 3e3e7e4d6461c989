import type { AddressInfo } from 'node:net';
import {
  mainAndSub,
  publishScene,
  startOnvifSimulator,
  startRtspServer,
  type OnvifSimulator,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { Activity, Camera, CameraDetail, CameraLive, ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { VisionEngine } from '../src/adapters/vision/vision.js';
import { person } from '../src/modules/analysis/analysis.test-support.js';
import type { CameraStateChange } from '../src/platform/events.js';
import { createTestApp, signUp, type TestApp, type TestUser } from './app.js';

/**
 * Stream cameras end to end, on real streams: an RTSP server and an ONVIF device simulator on 127.0.0.1
 * (both written for the tests, @homesitter/cameras/testing), fed by ffmpeg from the test media clips, and the
 * whole server pulling them. Every wait is for the event itself (a camera state, an activity, a frame).
 */
const LOGIN = { username: 'cam', password: 'S3cret-pass' };
// Real streams on a shared 2-core machine: the waits are for events, this only bounds a broken run.
vi.setConfig({ testTimeout: 180_000 });

/** A stand-in vision engine that sees a person in every picture: motion always makes an alert. */
const seesPerson: VisionEngine = {
  kind: 'local',
  analyse: async () => ({
    width: 640,
    height: 360,
    objects: [person()],
    faces: [],
  }),
  embedFaces: async () => [],
  close: async () => undefined,
};

let t: TestApp;
let base: string;
let rtsp: RtspTestServer;
let owner: TestUser;
let stranger: TestUser;
const publications: Publication[] = [];
const states: { userId: string; camera: CameraStateChange }[] = [];
const waiters: { match: (s: (typeof states)[number]) => boolean; resolve: () => void }[] = [];

beforeAll(async () => {
  rtsp = await startRtspServer({ auth: { ...LOGIN, scheme: 'digest' } });
  // The simulated cameras listen on loopback, which CAMERA_NETWORKS must list itself.
  t = await createTestApp({ vision: seesPerson, env: { CAMERA_NETWORKS: '127.0.0.0/8' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await signUp(t);
  stranger = await signUp(t);
  t.deps.events.on('cameras.changed', ({ userId, camera }) => {
    if (!camera) return;
    const state = { userId, camera };
    states.push(state);
    for (const w of waiters.splice(0))
      if (w.match(state)) w.resolve();
      else waiters.push(w);
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all(publications.map((p) => p.stop()));
  await rtsp?.close();
});

/** Resolves when the owner's camera reaches a state `match` accepts (now or later). */
function cameraState(name: string, match: (c: CameraStateChange) => boolean): Promise<void> {
  const accepts = (s: (typeof states)[number]) => s.camera.name === name && match(s.camera);
  if (states.some(accepts)) return Promise.resolve();
  return new Promise((resolve) => waiters.push({ match: accepts, resolve }));
}

/** Polls a condition that no single event tells (an RTSP server's players): no deadline but the test's. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 200));
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: who ? who.auth : {} });

async function publish(path: string, scene: Parameters<typeof publishScene>[1]) {
  const publication = await publishScene(rtsp.url(path), scene, { width: 640, height: 360, fps: 10 });
  publications.push(publication);
  await rtsp.waitForPublisher(path);
  return publication;
}

async function addRtspCamera(who: TestUser, name: string, path: string, login = LOGIN) {
  const res = await call('POST', '/api/users/cameras', who, {
    name,
    connection: { type: 'rtsp', url: rtsp.url(path), ...login },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: Camera }>().data;
}

const getCamera = async (who: TestUser, name: string) =>
  (await call('GET', `/api/users/cameras/${encodeURIComponent(name)}`, who)).json<{ data: CameraDetail }>()
    .data;

const activitiesOf = async (who: TestUser, name: string) =>
  (
    await call('GET', `/api/users/activities?camera_name=${encodeURIComponent(name)}&page=1&pageSize=50`, who)
  ).json<{ data: Activity[] }>().data;

describe('CAMERA_NETWORKS', () => {
  it('stops the server at start when an entry is not a network, naming it', async () => {
    await expect(createTestApp({ env: { CAMERA_NETWORKS: '192.168.1.0/24, 10.0.0.0/33' } })).rejects.toThrow(
      /10\.0\.0\.0\/33/,
    );
  });
});

describe('connecting a stream camera', () => {
  it('refuses an address outside CAMERA_NETWORKS with 400, storing nothing and connecting nowhere', async () => {
    // 203.0.113.0/24 is a documentation network: nothing is sent there, the policy answers first.
    const res = await call('POST', '/api/users/cameras', owner, {
      name: 'Far Away',
      connection: { type: 'rtsp', url: 'rtsp://203.0.113.7:554/stream1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'camera.network_not_allowed',
      message: expect.stringContaining('CAMERA_NETWORKS'),
    });
    expect((await call('GET', '/api/users/cameras/Far%20Away', owner)).statusCode).toBe(404);
  });

  it('answers bad connections with a 400 naming the field', async () => {
    const bad = [
      { type: 'rtsp', url: 'http://127.0.0.1/stream' },
      { type: 'rtsp', url: 'rtsp://127.0.0.1/x', username: 'a\u0000b' },
      { type: 'onvif', host: '127.0.0.1', username: 'admin' },
      { type: 'onvif', host: 'http://127.0.0.1/onvif', username: 'a', password: 'b' },
      { type: 'onvif', host: '127.0.0.1', port: 70_000, username: 'a', password: 'b' },
      { type: 'webrtc', url: 'x' },
    ];
    for (const connection of bad) {
      const res = await call('POST', '/api/users/cameras', owner, { name: 'Bad', connection });
      expect(res.statusCode, JSON.stringify(connection)).toBe(400);
      expect(res.json().message).toMatch(/url|username|password|host|port|connection/);
    }
    expect((await call('GET', '/api/users/cameras/Bad', owner)).statusCode).toBe(404);
  });

  it('configures an RTSP camera: status over realtime, the first frame, the login never answered', async () => {
    await publish('/still', 'still');
    const added = await addRtspCamera(owner, 'Driveway', '/still');
    expect(added).toMatchObject({ connection_type: 'rtsp', configuration_status: 'configuring' });

    await cameraState('Driveway', (c) => c.configuration_status === 'configured');
    await cameraState('Driveway', (c) => c.stream_status === 'streaming');
    const camera = await getCamera(owner, 'Driveway');
    expect(camera).toMatchObject({
      configuration_status: 'configured',
      configuration_error: null,
      stream_status: 'streaming',
      snapshot_url: expect.stringContaining('/media/'),
      connection: {
        type: 'rtsp',
        url: rtsp.url('/still'),
        username: LOGIN.username,
        motion_source: 'frames',
        video: { codec: 'h264', width: 640, height: 360 },
      },
    });
    const snapshot = await fetch(camera.snapshot_url!.replace('http://homesitter.test', base));
    expect(snapshot.headers.get('content-type')).toBe('image/jpeg');
    for (const res of [
      await call('GET', '/api/users/cameras/Driveway', owner),
      await call('GET', '/api/users/cameras', owner),
    ]) {
      expect(res.body).not.toContain(LOGIN.password);
    }
  });

  it('says "wrong credentials", and configures once the login is corrected', async () => {
    await addRtspCamera(owner, 'Garage', '/still', { username: 'cam', password: 'wrong' });
    await cameraState('Garage', (c) => c.configuration_status === 'failed');
    expect(await getCamera(owner, 'Garage')).toMatchObject({
      configuration_status: 'failed',
      configuration_error_code: 'wrong_credentials',
      configuration_error: 'The camera refused the username or password.',
    });

    const fixed = await call('POST', '/api/users/update-camera', owner, {
      name: 'Garage',
      connection: { type: 'rtsp', url: rtsp.url('/still'), ...LOGIN },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await cameraState('Garage', (c) => c.configuration_status === 'configured');
  });

  it('says "unreachable" for an address where nothing listens, and retries on request', async () => {
    const res = await call('POST', '/api/users/cameras', owner, {
      name: 'Shed',
      connection: { type: 'rtsp', url: 'rtsp://127.0.0.1:9/stream' },
    });
    expect(res.statusCode).toBe(201);
    await cameraState('Shed', (c) => c.configuration_status === 'failed');
    expect(await getCamera(owner, 'Shed')).toMatchObject({ configuration_error_code: 'unreachable' });

    states.length = 0;
    const retried = await call('POST', '/api/users/cameras/Shed/configure', owner);
    expect(retried.statusCode).toBe(202);
    expect(retried.json().data).toMatchObject({ configuration_status: 'configuring' });
    await cameraState('Shed', (c) => c.configuration_status === 'failed');
  });

  it('configures an ONVIF camera: device, main and sub stream, its own motion events', async () => {
    await mainAndSub(rtsp, 'still', { fps: 10 }).then((p) => publications.push(p));
    const device = await startOnvif();
    const res = await call('POST', '/api/users/cameras', owner, {
      name: 'Porch',
      connection: { type: 'onvif', host: '127.0.0.1', port: device.port, ...LOGIN },
    });
    expect(res.statusCode, res.body).toBe(201);
    await cameraState('Porch', (c) => c.configuration_status === 'configured');
    expect((await getCamera(owner, 'Porch')).connection).toMatchObject({
      type: 'onvif',
      host: '127.0.0.1',
      port: device.port,
      manufacturer: 'Homesitter Test',
      motion_source: 'onvif',
      video: { codec: 'h264', width: 1280, height: 720 },
    });

    const wrong = await call('POST', '/api/users/cameras', owner, {
      name: 'Porch 2',
      connection: { type: 'onvif', host: '127.0.0.1', port: device.port, username: 'cam', password: 'nope' },
    });
    expect(wrong.statusCode).toBe(201);
    await cameraState('Porch 2', (c) => c.configuration_status === 'failed');
    expect(await getCamera(owner, 'Porch 2')).toMatchObject({
      configuration_error_code: 'wrong_credentials',
    });
  });
});

let onvif: OnvifSimulator | undefined;
async function startOnvif(): Promise<OnvifSimulator> {
  onvif ??= await startOnvifSimulator({
    ...LOGIN,
    rtspBase: `rtsp://127.0.0.1:${rtsp.port}`,
    motionEvents: true,
    manufacturer: 'Homesitter Test',
    model: 'Sim 1',
  });
  return onvif;
}
afterAll(async () => onvif?.close());

describe('recording what moves', () => {
  it('turns a person walking into the picture into one activity with a clip, and an alert', async () => {
    await publish('/walk', 'person-walks-in');
    await addRtspCamera(owner, 'Front Door', '/walk');
    await cameraState('Front Door', (c) => c.stream_status === 'streaming');

    // The motion snapshot starts the activity at once; the clip (pre-event + motion + tail) joins it.
    await until(async () => (await activitiesOf(owner, 'Front Door')).some((a) => a.video_url));
    const found = await activitiesOf(owner, 'Front Door');
    // The snapshot sent at motion start and the clip are one activity, not two.
    expect(found).toHaveLength(1);
    const [activity] = found;
    expect(activity).toMatchObject({ camera_name: 'Front Door', video_url: expect.any(String) });
    expect(activity!.thumbnail_image_url).toBeTruthy();
    await until(async () =>
      (await history(owner)).some((m) => m.source_activity_uuid_list.includes(activity!.activity_uuid)),
    );
  });

  it('turns the camera’s own ONVIF motion event into an activity', async () => {
    const device = await startOnvif();
    await cameraState('Porch', (c) => c.stream_status === 'streaming');
    device.setMotion(true);
    await until(async () => (await activitiesOf(owner, 'Porch')).length > 0);
    device.setMotion(false);
  });

  it('makes no activity of a stream where nothing moves', async () => {
    // The still camera has streamed since its configuration; a viewer's fragments prove time went by.
    await watchMediaSeconds(owner, 'Driveway', 8);
    expect(await activitiesOf(owner, 'Driveway')).toEqual([]);
  });
});

describe('supervising the upstream', () => {
  it('reconnects when the stream drops, and says so on the camera meanwhile', async () => {
    states.length = 0;
    rtsp.dropPlayers('/still');
    await cameraState('Driveway', (c) => c.stream_status === 'reconnecting');
    await cameraState('Driveway', (c) => c.stream_status === 'streaming');
  });

  it('stops pulling in private mode (the camera’s or the global one) and resumes after', async () => {
    const pulls = () => rtsp.stats().players['/walk'] ?? 0;
    await until(() => pulls() > 0);
    await call('PUT', '/api/cameras/Front%20Door/settings', owner, { is_private_mode_enabled: true });
    await cameraState('Front Door', (c) => c.stream_status === 'private');
    await until(() => pulls() === 0);
    expect(await getCamera(owner, 'Front Door')).toMatchObject({
      stream_status: 'private',
      snapshot_url: null,
    });

    await call('PUT', '/api/cameras/Front%20Door/settings', owner, { is_private_mode_enabled: false });
    await until(() => pulls() > 0);

    await call('POST', '/api/users/update-global-privacy-mode', owner, {
      is_global_privacy_mode_enabled: true,
    });
    await until(() => pulls() === 0 && (rtsp.stats().players['/still'] ?? 0) === 0);
    await call('POST', '/api/users/update-global-privacy-mode', owner, {
      is_global_privacy_mode_enabled: false,
    });
    await until(() => pulls() > 0);
  });
});

describe('watching live', () => {
  it('answers signed URLs; the socket sends the type, the init segment, then fragments', async () => {
    await cameraState('Driveway', (c) => c.stream_status === 'streaming');
    const live = await liveOf(owner, 'Driveway');
    expect(live).toMatchObject({ mode: 'stream', mse_url: expect.stringMatching(/^\/api\/live\//) });
    const messages = await readSocket(live.mse_url!, 3);
    expect(JSON.parse(messages[0]!.toString())).toMatchObject({
      type: 'init',
      mime_type: expect.stringContaining('avc1'),
    });
    expect((messages[1] as Buffer).subarray(4, 8).toString()).toBe('ftyp');
    expect((messages[2] as Buffer).subarray(4, 8).toString()).toBe('moof');
  });

  it('serves HLS as the fallback', async () => {
    const live = await liveOf(owner, 'Driveway');
    let playlist = '';
    await until(async () => {
      const res = await fetch(`${base}${live.hls_url}`);
      playlist = await res.text();
      return res.ok && playlist.includes('segment-');
    });
    expect(playlist).toContain('#EXT-X-MAP:URI="init-');
    const segment = playlist.split('\n').find((l) => l.startsWith('segment-'))!;
    const res = await fetch(`${base}${live.hls_url!.replace(/index\.m3u8\?.*/, segment)}`);
    expect(res.status).toBe(200);
  });

  it('refuses a tampered or foreign link, and another user’s camera', async () => {
    const live = await liveOf(owner, 'Driveway');
    const tampered = live.hls_url!.replace(/sig=.{4}/, 'sig=AAAA');
    expect((await fetch(`${base}${tampered}`)).status).toBe(403);
    expect((await call('GET', '/api/users/cameras/Driveway/live', stranger)).statusCode).toBe(404);
    expect((await call('POST', '/api/users/cameras/Driveway/configure', stranger)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/cameras', stranger)).json().data).toEqual([]);
  });

  it('shows an upload camera’s latest snapshot instead of a stream', async () => {
    await call('POST', '/api/users/cameras', owner, { name: 'Mailbox' });
    expect(await liveOf(owner, 'Mailbox')).toMatchObject({
      mode: 'snapshot',
      connection_type: 'upload',
      mse_url: null,
      hls_url: null,
      snapshot_url: null,
    });
  });
});

async function history(who: TestUser): Promise<ChatMessage[]> {
  return (await call('GET', '/api/users/conversation-history?page=1&pageSize=50', who)).json<{
    data: ChatMessage[];
  }>().data;
}

async function liveOf(who: TestUser, name: string): Promise<CameraLive> {
  const res = await call('GET', `/api/users/cameras/${encodeURIComponent(name)}/live`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CameraLive }>().data;
}

/** The first `count` messages of a live socket, status messages aside. */
function readSocket(path: string, count: number): Promise<(Buffer | string)[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}${path}`);
    const messages: (Buffer | string)[] = [];
    socket.on('message', (data, isBinary) => {
      const bytes = data as Buffer;
      if (!isBinary && (JSON.parse(bytes.toString()) as { type: string }).type === 'status') return;
      messages.push(isBinary ? bytes : bytes.toString());
      if (messages.length === count) {
        socket.close();
        resolve(messages);
      }
    });
    socket.on('error', reject);
  });
}

/** Watches a camera live until `seconds` of its media went by (measured in the media, not the clock). */
async function watchMediaSeconds(who: TestUser, name: string, seconds: number): Promise<void> {
  const live = await liveOf(who, name);
  const pipe = t.modules.streams.pipe(live.camera_name ? (await getCamera(who, name)).camera_uuid : '');
  expect(pipe).toBeDefined();
  await new Promise<void>((resolve) => {
    let fragments = 0;
    const leave = pipe!.live.join({
      send: (data) => {
        if (typeof data !== 'string' && data.subarray(4, 8).toString() === 'moof') fragments += 1;
        // One fragment per frame at 10 frames a second.
        if (fragments >= seconds * 10) {
          leave();
          resolve();
        }
      },
      bufferedAmount: () => 0,
      close: () => undefined,
    });
  });
}
