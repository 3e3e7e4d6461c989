import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { createMp4Reader } from '@homesitter/cameras';
import {
  HELPER_CONNECT_PATH,
  type AuthSession,
  type Camera,
  type CameraDetail,
  type CameraLive,
  type CamerasChangedEvent,
  type HelperCameraDetails,
  type HelperLinkStatus,
  type HelperToServerMessage,
  type ServerToHelperMessage,
} from '@homesitter/contract';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createHelperDownloads } from '../src/modules/helper/helper.downloads.js';
import type { CameraStateChange } from '../src/platform/events.js';
import { createTestApp, signUp, type TestApp, type TestUser } from './app.js';
import { FFMPEG, hasFfmpeg } from './clips.js';

/**
 * The desktop helper's side of the server, end to end over real sockets: a fake helper (a plain WebSocket
 * client speaking the contract's protocol) links to the server, bridges cameras, reports on them and relays
 * live fMP4 made by ffmpeg from its test pattern; browsers are a WebSocket viewer, fetch (HLS) and the
 * official SignalR client. Every wait is for the event itself.
 */
vi.setConfig({ testTimeout: 60_000 });
const NOT_CONNECTED = 'The Homesitter helper on your computer is not connected.';
const canRelay = hasFfmpeg();

let t: TestApp;
let base: string;
let owner: TestUser;
let stranger: TestUser;
let downloadsDir: string;
const states: { userId: string; camera: CameraStateChange }[] = [];
const waiters: { match: (s: (typeof states)[number]) => boolean; resolve: () => void }[] = [];
const cleanup: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  downloadsDir = mkdtempSync(join(tmpdir(), 'hs-helper-builds-'));
  writeFileSync(join(downloadsDir, 'homesitter-helper-linux-x64'), 'linux build');
  writeFileSync(join(downloadsDir, 'homesitter-helper-windows-x64.exe'), 'windows build!');
  writeFileSync(join(downloadsDir, 'README.txt'), 'not a build');
  // The realtime negotiate sends the client to PUBLIC_URL's hub: PUBLIC_URL is where the app listens.
  const port = await new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const free = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(free));
    });
  });
  t = await createTestApp({
    helperLiveLingerMs: 50,
    env: { HELPER_DOWNLOADS_DIR: downloadsDir, PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  [owner, stranger] = await Promise.all([signUp(t), signUp(t)]);
  t.deps.events.on('cameras.changed', ({ userId, camera }) => {
    if (!camera) return;
    const state = { userId, camera };
    states.push(state);
    for (const w of waiters.splice(0))
      if (w.match(state)) w.resolve();
      else waiters.push(w);
  });
});

afterAll(async () => {
  for (const undo of cleanup.reverse()) await undo();
  await t?.close();
});

/** Resolves when a camera reaches a state `match` accepts, announced after `since` (an index into states). */
function cameraState(name: string, match: (c: CameraStateChange) => boolean, since = 0): Promise<void> {
  const accepts = (s: (typeof states)[number]) => s.camera.name === name && match(s.camera);
  if (states.slice(since).some(accepts)) return Promise.resolve();
  return new Promise((resolve) => waiters.push({ match: accepts, resolve }));
}

/** Polls what no single event tells (a row another step writes): no deadline but the test's. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: who ? who.auth : {} });

const getCamera = async (who: TestUser, name: string) => {
  const res = await call('GET', `/api/users/cameras/${encodeURIComponent(name)}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CameraDetail }>().data;
};

async function addHelperCamera(who: TestUser, name: string): Promise<Camera> {
  const res = await call('POST', '/api/users/cameras', who, { name, connection: { type: 'helper' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: Camera }>().data;
}

async function liveOf(who: TestUser, name: string): Promise<CameraLive> {
  const res = await call('GET', `/api/users/cameras/${encodeURIComponent(name)}/live`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CameraLive }>().data;
}

const helperStatus = async (who: TestUser) =>
  (await call('GET', '/api/users/helper', who)).json<{ data: HelperLinkStatus }>().data;

const wsUrl = (path: string) => `${base.replace('http', 'ws')}${path}`;

/**
 * Opens a socket; rejects with the HTTP status when the server refuses the upgrade. `onSocket` attaches
 * listeners before it opens: a message sent at once may arrive with the upgrade's answer.
 */
function openSocket(
  path: string,
  headers: Record<string, string> = {},
  onSocket: (socket: WebSocket) => void = () => undefined,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), { headers });
    onSocket(socket);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (req, res) => {
      req.destroy();
      reject(new Error(`refused ${res.statusCode}`));
    });
    socket.once('error', reject);
  });
}

/** A desktop helper as the server sees it: a WebSocket client speaking the contract's protocol. */
class FakeHelper {
  readonly received: ServerToHelperMessage[] = [];
  private readonly waiting: {
    match: (m: ServerToHelperMessage) => boolean;
    resolve: (m: ServerToHelperMessage) => void;
  }[] = [];
  private socket!: WebSocket;
  private closed!: Promise<void>;

  private listen(socket: WebSocket): void {
    this.socket = socket;
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as ServerToHelperMessage;
      this.received.push(message);
      for (const w of this.waiting.splice(0))
        if (w.match(message)) w.resolve(message);
        else this.waiting.push(w);
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static async connect(who: TestUser, via: 'header' | 'query' = 'header'): Promise<FakeHelper> {
    const helper = new FakeHelper();
    const listen = (socket: WebSocket) => helper.listen(socket);
    if (via === 'header') await openSocket(HELPER_CONNECT_PATH, who.auth, listen);
    else
      await openSocket(`${HELPER_CONNECT_PATH}?access_token=${encodeURIComponent(who.idToken)}`, {}, listen);
    cleanup.push(() => helper.close());
    return helper;
  }

  /** The first message from index `since` on that `match` accepts, now or later. */
  next<M extends ServerToHelperMessage>(
    match: (m: ServerToHelperMessage) => m is M,
    since?: number,
  ): Promise<M>;
  next(match: (m: ServerToHelperMessage) => boolean, since?: number): Promise<ServerToHelperMessage>;
  next(match: (m: ServerToHelperMessage) => boolean, since = 0): Promise<ServerToHelperMessage> {
    const found = this.received.slice(since).find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiting.push({ match, resolve }));
  }

  send(message: HelperToServerMessage | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) this.socket.close();
    await this.closed;
  }
}

const isCameras = (m: ServerToHelperMessage): m is Extract<ServerToHelperMessage, { type: 'cameras' }> =>
  m.type === 'cameras';

const DETAILS: HelperCameraDetails = {
  address: 'rtsp://admin:hunter2-secret@192.168.1.20:554/stream1',
  device: { manufacturer: 'Reolink', model: 'RLC-510A', firmware: 'v3.0' },
  motion_source: 'onvif',
  video: { codec: 'h264', width: 2560, height: 1920, fps: 15 },
  audio_codec: 'aac',
};

function streaming(cameraUuid: string): Extract<HelperToServerMessage, { type: 'camera-state' }> {
  return {
    type: 'camera-state',
    camera_uuid: cameraUuid,
    configuration_status: 'configured',
    configuration_error_code: null,
    stream_status: 'streaming',
    stream_error: null,
    details: DETAILS,
  };
}

describe('a session of its own for the desktop helper', () => {
  it('answers a new session for a fresh ID token, whose refresh token works on its own', async () => {
    const res = await call('POST', '/api/auth/device-session', owner);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json<AuthSession>();
    expect(session).toMatchObject({ success: true, user: { uid: owner.uid, email: owner.email } });
    expect(session.refreshToken).not.toBe(owner.refreshToken);

    const refreshed = await call('POST', '/api/auth/token', null, { refreshToken: session.refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // A new family: the browser's own sign-in goes on untouched.
    const browser = await call('POST', '/api/auth/token', null, { refreshToken: owner.refreshToken });
    expect(browser.statusCode, browser.body).toBe(200);
    owner.refreshToken = browser.json<AuthSession>().refreshToken;
  });

  it('refuses an ID token issued more than 10 minutes ago, and no token at all', async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = await new SignJWT({ email: owner.email, email_verified: true })
      .setProtectedHeader({ alg: 'EdDSA', kid: t.deps.signingKey.publicJwk.kid, typ: 'JWT' })
      .setSubject(owner.uid)
      .setIssuer(t.deps.config.PUBLIC_URL)
      .setAudience('homesitter')
      .setIssuedAt(now - 11 * 60)
      .setExpirationTime(now + 40 * 60)
      .sign(t.deps.signingKey.privateKey);
    // The token itself is good: other calls take it.
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${old}` },
    });
    expect(profile.statusCode).toBe(200);

    const tooOld = await t.app.inject({
      method: 'POST',
      url: '/api/auth/device-session',
      headers: { authorization: `Bearer ${old}` },
    });
    expect(tooOld.statusCode).toBe(401);
    expect(tooOld.json().message).toMatch(/at most 10 minutes old/);
    expect((await call('POST', '/api/auth/device-session', null)).statusCode).toBe(401);
  });
});

describe('cameras the helper bridges', () => {
  it('adds one without any check, configuring, never configured or pulled by the server', async () => {
    const added = await addHelperCamera(owner, 'Garden');
    expect(added).toMatchObject({
      connection_type: 'helper',
      configuration_status: 'configuring',
      stream_status: 'stopped',
      snapshot_url: null,
    });
    expect(await getCamera(owner, 'Garden')).toMatchObject({ connection_type: 'helper', connection: null });
    expect(t.modules.streams.pipe(added.camera_uuid)).toBeUndefined();

    const retry = await call('POST', '/api/users/cameras/Garden/configure', owner);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().message).toBe(
      'This camera is set up by the Homesitter helper on your computer; retry there.',
    );
  });

  it('switches a camera to and from the helper with update-camera', async () => {
    await call('POST', '/api/users/cameras', owner, { name: 'Barn' });
    const toHelper = await call('POST', '/api/users/update-camera', owner, {
      name: 'Barn',
      connection: { type: 'helper' },
    });
    expect(toHelper.json().data).toMatchObject({
      connection_type: 'helper',
      configuration_status: 'configuring',
    });
    const back = await call('POST', '/api/users/update-camera', owner, {
      name: 'Barn',
      connection: { type: 'upload' },
    });
    expect(back.json().data).toMatchObject({ connection_type: 'upload', stream_status: null });
  });

  it('answers its live view like an offline stream camera while no helper is connected', async () => {
    expect(await liveOf(owner, 'Garden')).toMatchObject({
      connection_type: 'helper',
      mode: 'stream',
      mse_url: null,
      hls_url: null,
    });
  });
});

describe('the helper link', () => {
  it('refuses a socket without a token, or with a bad one, before it opens', async () => {
    await expect(openSocket(HELPER_CONNECT_PATH)).rejects.toThrow('refused 401');
    await expect(openSocket(HELPER_CONNECT_PATH, { authorization: 'Bearer nonsense' })).rejects.toThrow(
      'refused 401',
    );
    await expect(openSocket(`${HELPER_CONNECT_PATH}?access_token=nonsense`)).rejects.toThrow('refused 401');
    const unverified = await signUp(t, { verify: false });
    await expect(openSocket(HELPER_CONNECT_PATH, unverified.auth)).rejects.toThrow('refused 403');
  });

  it('sends the user’s helper cameras on connect and again when one turns private', async () => {
    const garden = (await getCamera(owner, 'Garden')).camera_uuid;
    const helper = await FakeHelper.connect(owner, 'query');
    const first = await helper.next(isCameras);
    expect(first.cameras).toEqual([
      { camera_uuid: garden, name: 'Garden', private: false, motion_sensitivity: 6 },
    ]);

    const since = helper.received.length;
    await call('PUT', '/api/cameras/Garden/settings', owner, { is_private_mode_enabled: true });
    const turned = await helper.next(isCameras, since);
    expect(turned.cameras[0]).toMatchObject({ camera_uuid: garden, private: true });
    await cameraState('Garden', (c) => c.stream_status === 'private');

    const after = helper.received.length;
    await call('PUT', '/api/cameras/Garden/settings', owner, { is_private_mode_enabled: false });
    await helper.next((m) => isCameras(m) && m.cameras[0]?.private === false, after);
    await call('POST', '/api/users/update-global-privacy-mode', owner, {
      is_global_privacy_mode_enabled: true,
    });
    await helper.next((m) => isCameras(m) && m.cameras[0]?.private === true, after);
    await call('POST', '/api/users/update-global-privacy-mode', owner, {
      is_global_privacy_mode_enabled: false,
    });
    await helper.next(
      (m) => isCameras(m) && m.cameras[0]?.private === false,
      helper.received.findLastIndex((m) => isCameras(m) && m.cameras[0]?.private === true),
    );
    await helper.close();
  });

  it('records what the helper reports of its camera, tells the apps over realtime, never the login', async () => {
    const garden = (await getCamera(owner, 'Garden')).camera_uuid;
    const hub = await realtime(owner);
    const told = new Promise<CamerasChangedEvent>((resolve) =>
      hub.on('CamerasChanged', (event: CamerasChangedEvent) => {
        if (event.camera_name === 'Garden' && event.stream_status === 'streaming') resolve(event);
      }),
    );
    const helper = await FakeHelper.connect(owner);
    await helper.next(isCameras);
    helper.send({ type: 'hello', helper_id: 'laptop-1', version: '0.1.0', cameras: [garden] });
    helper.send(streaming(garden));

    expect(await told).toMatchObject({ configuration_status: 'configured', stream_status: 'streaming' });
    const camera = await getCamera(owner, 'Garden');
    expect(camera).toMatchObject({
      configuration_status: 'configured',
      stream_status: 'streaming',
      stream_error: null,
      connection: {
        type: 'helper',
        url: 'rtsp://192.168.1.20:554/stream1',
        host: '192.168.1.20',
        port: 554,
        username: null,
        manufacturer: 'Reolink',
        model: 'RLC-510A',
        motion_source: 'onvif',
        video: { codec: 'h264', width: 2560, height: 1920 },
        has_audio: true,
      },
    });
    for (const res of [
      await call('GET', '/api/users/cameras/Garden', owner),
      await call('GET', '/api/users/cameras', owner),
    ]) {
      expect(res.body).not.toContain('hunter2');
    }
    await until(async () => (await helperStatus(owner)).connected);
    expect(await helperStatus(owner)).toMatchObject({ connected: true, version: '0.1.0' });
    await helper.close();
  });

  it('ignores what is not the protocol, and cameras that are not the user’s own helper cameras', async () => {
    const shed = await addHelperCamera(stranger, 'Shed');
    const garden = (await getCamera(owner, 'Garden')).camera_uuid;
    const helper = await FakeHelper.connect(owner);
    await helper.next(isCameras);
    helper.send('not json');
    helper.send(JSON.stringify({ type: 'camera-state', camera_uuid: garden, configuration_status: 'bogus' }));
    helper.send(JSON.stringify({ type: 'take-over' }));
    helper.send({
      type: 'hello',
      helper_id: 'laptop-1',
      version: '0.1.0',
      cameras: [garden, shed.camera_uuid],
    });
    helper.send({ ...streaming(shed.camera_uuid), stream_status: 'reconnecting', stream_error: 'hijacked' });
    await expect(openSocket(`/api/helper/live/${shed.camera_uuid}`, owner.auth)).rejects.toThrow(
      'refused 404',
    );
    // The link still works, in order: once this report is in, the ones before it were handled.
    const since = states.length;
    helper.send({ ...streaming(garden), stream_status: 'reconnecting', stream_error: 'Camera unreachable' });
    await cameraState('Garden', (c) => c.stream_status === 'reconnecting', since);
    expect((await getCamera(owner, 'Garden')).stream_error).toBe('Camera unreachable');
    expect(await getCamera(stranger, 'Shed')).toMatchObject({
      configuration_status: 'configuring',
      stream_status: 'stopped',
    });
    helper.send(streaming(garden));
    await cameraState('Garden', (c) => c.stream_status === 'streaming', since);
    await helper.close();
  });

  it('says the helper is not connected when the one bridging a camera goes, and back when it returns', async () => {
    const garden = (await getCamera(owner, 'Garden')).camera_uuid;
    const helper = await FakeHelper.connect(owner);
    await helper.next(isCameras);
    helper.send({ type: 'hello', helper_id: 'laptop-1', version: '0.1.0', cameras: [garden] });
    helper.send(streaming(garden));
    await until(async () => (await getCamera(owner, 'Garden')).stream_status === 'streaming');

    const since = states.length;
    await helper.close();
    await cameraState('Garden', (c) => c.stream_status === 'reconnecting', since);
    expect(await getCamera(owner, 'Garden')).toMatchObject({
      stream_status: 'reconnecting',
      stream_error: NOT_CONNECTED,
    });
    await until(async () => !(await helperStatus(owner)).connected);
    expect((await helperStatus(owner)).last_seen_at).toEqual(expect.any(String));

    const back = await FakeHelper.connect(owner);
    await back.next(isCameras);
    back.send({ type: 'hello', helper_id: 'laptop-1', version: '0.1.1', cameras: [garden] });
    await cameraState('Garden', (c) => c.stream_status === 'connecting', since);
    back.send(streaming(garden));
    await cameraState('Garden', (c) => c.stream_status === 'streaming', since);
    await back.close();
  });
});

describe.skipIf(!canRelay)('live view relayed by the helper', () => {
  it('serves a bridged camera live like a pulled one, and stops the relay when nobody watches', async () => {
    const media = fragmentedClip();
    const garden = (await getCamera(owner, 'Garden')).camera_uuid;
    const helper = await FakeHelper.connect(owner);
    await helper.next(isCameras);
    helper.send({ type: 'hello', helper_id: 'laptop-1', version: '0.1.0', cameras: [garden] });
    helper.send(streaming(garden));
    await until(async () => (await liveOf(owner, 'Garden')).mse_url !== null);
    const live = await liveOf(owner, 'Garden');
    expect(live).toMatchObject({ mode: 'stream', connection_type: 'helper', has_audio: true });

    // A browser opens the live socket: the helper is asked to relay.
    const viewer = watch(live.mse_url!);
    const start = await helper.next((m) => m.type === 'live-start');
    expect(start).toEqual({ type: 'live-start', camera_uuid: garden });

    // The helper relays what a viewer of its own hub receives.
    let relayClosed!: Promise<void>;
    const relay = await openSocket(
      `/api/helper/live/${garden}?access_token=${encodeURIComponent(owner.idToken)}`,
      {},
      (socket) => {
        relayClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      },
    );
    relay.send(JSON.stringify({ type: 'init', mime_type: media.mimeType }));
    relay.send(media.init);
    relay.send(JSON.stringify({ type: 'status', stream_status: 'streaming' }));
    for (const fragment of media.fragments) relay.send(fragment);

    const messages = await viewer.first(4);
    expect(JSON.parse(messages[0] as string)).toEqual({ type: 'init', mime_type: media.mimeType });
    expect((messages[1] as Buffer).subarray(4, 8).toString()).toBe('ftyp');
    expect((messages[2] as Buffer).subarray(4, 8).toString()).toBe('moof');
    expect((messages[3] as Buffer).subarray(4, 8).toString()).toBe('moof');
    expect(viewer.statuses).toContain('streaming');
    expect((await liveOf(owner, 'Garden')).mime_type).toBe(media.mimeType);

    // HLS from the same relay.
    let playlist = '';
    await until(async () => {
      const res = await fetch(`${base}${live.hls_url}`);
      playlist = await res.text();
      return res.ok && playlist.includes('segment-');
    });
    expect(playlist).toContain('#EXT-X-MAP:URI="init-');
    const segment = playlist.split('\n').find((l) => l.startsWith('segment-'))!;
    expect((await fetch(`${base}${live.hls_url!.replace(/index\.m3u8\?.*/, segment)}`)).status).toBe(200);

    // Nobody watches any more: after the linger the helper is told to stop and its relay is closed.
    const before = helper.received.length;
    viewer.close();
    expect(await helper.next((m) => m.type === 'live-stop', before)).toEqual({
      type: 'live-stop',
      camera_uuid: garden,
    });
    await relayClosed;
    await helper.close();
  });
});

describe('helper downloads', () => {
  it('lists the builds in HELPER_DOWNLOADS_DIR and hands them out by exact name', async () => {
    const res = await call('GET', '/api/helper/downloads', null);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { os: 'linux', arch: 'x64', url: '/api/helper/downloads/homesitter-helper-linux-x64', size: 11 },
      {
        os: 'windows',
        arch: 'x64',
        url: '/api/helper/downloads/homesitter-helper-windows-x64.exe',
        size: 14,
      },
    ]);
    const file = await call('GET', '/api/helper/downloads/homesitter-helper-windows-x64.exe', null);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.body).toBe('windows build!');
  });

  it('refuses any other name, and paths out of the folder', async () => {
    for (const [name, status] of [
      ['README.txt', 400],
      ['..%2F..%2Fpackage.json', 400],
      ['%2Fetc%2Fpasswd', 400],
      ['homesitter-helper-macos-arm64', 404],
    ] as const) {
      expect((await call('GET', `/api/helper/downloads/${name}`, null)).statusCode, name).toBe(status);
    }
  });

  it('answers an empty list when no build is there', async () => {
    expect(await createHelperDownloads(join(downloadsDir, 'missing')).list()).toEqual([]);
  });
});

/** The official realtime client, as the web app uses it. */
async function realtime(who: TestUser): Promise<HubConnection> {
  const connection = new HubConnectionBuilder()
    .withUrl(`${base}/api/realtime`, { accessTokenFactory: () => who.idToken })
    .configureLogging(LogLevel.None)
    .build();
  await connection.start();
  cleanup.push(() => connection.stop());
  return connection;
}

/** A live viewer on the MSE socket: its media messages in order, and the statuses it was told. */
function watch(path: string) {
  const socket = new WebSocket(wsUrl(path));
  const messages: (Buffer | string)[] = [];
  const statuses: string[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  socket.on('message', (data, isBinary) => {
    const bytes = data as Buffer;
    if (!isBinary) {
      const message = JSON.parse(bytes.toString()) as { type: string; stream_status?: string };
      if (message.type === 'status') {
        statuses.push(message.stream_status!);
        return;
      }
    }
    messages.push(isBinary ? bytes : bytes.toString());
    for (const w of waiting.splice(0))
      if (messages.length >= w.count) w.resolve();
      else waiting.push(w);
  });
  cleanup.push(() => socket.close());
  return {
    statuses,
    async first(count: number): Promise<(Buffer | string)[]> {
      if (messages.length < count) await new Promise<void>((resolve) => waiting.push({ count, resolve }));
      return messages.slice(0, count);
    },
    close: () => socket.close(),
  };
}

/**
 * Three seconds of a camera-sized picture as the helper's hub sends them: init segment, then one fragment per
 * frame. The picture does not matter to a relay, so it is ffmpeg's test pattern at a camera's 10 fps.
 */
function fragmentedClip(): { mimeType: string; init: Buffer; fragments: Buffer[] } {
  const out = spawnSync(
    FFMPEG,
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x180:rate=10',
        '-t',
        '3',
      ],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '10'],
      ...['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof+frag_every_frame', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (out.status !== 0) throw new Error(`ffmpeg failed: ${String(out.stderr)}`);
  const events = createMp4Reader().push(out.stdout);
  const init = events.find((e) => e.type === 'init');
  if (init?.type !== 'init') throw new Error('no init segment');
  const fragments = events.flatMap((e) => (e.type === 'fragment' ? [e.fragment.data] : []));
  return { mimeType: init.init.mimeType, init: init.init.data, fragments };
}
