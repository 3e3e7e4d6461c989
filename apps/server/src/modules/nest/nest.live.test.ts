import type { AddressInfo } from 'node:net';
import {
  publishScene,
  startRtspServer,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { CameraLive } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { sdmDevice, startFakeGoogle, type FakeGoogle } from '../../../test/fake-google.js';
import type { LiveClock } from './nest.live.js';
import { linkNest } from '../../../test/nest-link.js';

/**
 * Nest live view on demand, on a real stream: the fake Google hands out RTSP addresses on the tests' RTSP
 * server, which ffmpeg publishes a scene to, and the server pulls them only while someone watches. The
 * sessions' timers (extension, the grace after the last viewer) run on a clock the tests move by hand.
 */
vi.setConfig({ testTimeout: 120_000 });

/** Timers that fire only when `advance` moves the time past them; `advance` waits for their work. */
function manualClock(start = Date.now()) {
  let now = start;
  const timers = new Set<{ due: number; work: () => Promise<void> }>();
  const clock: LiveClock & { advance(ms: number): Promise<void> } = {
    now: () => now,
    after(ms, work) {
      const timer = { due: now + ms, work };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...timers].filter((t) => t.due <= until).sort((a, b) => a.due - b.due)[0];
        if (!next) break;
        timers.delete(next);
        now = next.due;
        await next.work();
      }
      now = until;
    },
  };
  return clock;
}

const P = 'test-project';
const LINGER_MS = 20_000;
const clock = manualClock();
let t: TestApp;
let google: FakeGoogle;
let rtsp: RtspTestServer;
let publication: Publication;
let owner: TestUser;
let base: string;

beforeAll(async () => {
  rtsp = await startRtspServer();
  publication = await publishScene(rtsp.url('/nest'), 'clock', { width: 320, height: 180, fps: 10 });
  await rtsp.waitForPublisher('/nest');
  google = await startFakeGoogle(P);
  google.state.rtspUrl = () => rtsp.url('/nest');
  google.state.now = () => clock.now();
  google.state.devices = [
    sdmDevice(P, 'porch', { customName: 'Porch' }),
    sdmDevice(P, 'garage', { customName: 'Garage' }),
    sdmDevice(P, 'hall', { customName: 'Hall' }),
  ];
  t = await createTestApp({
    env: google.env,
    chatAnswers: false,
    analysis: false,
    nestLive: { clock, lingerMs: LINGER_MS },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await signUp(t);
  await linkNest(t, owner);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await google?.close();
  await publication?.stop();
  await rtsp?.close();
});

async function liveOf(name: string): Promise<CameraLive> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/users/cameras/${name}/live`,
    headers: owner.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CameraLive }>().data;
}

/** Polls what no single event tells (the server noticed a socket close, the RTSP server's players). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** An MSE viewer: its messages (status texts aside), and a wait for the next `count` of them. */
function viewer(path: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}${path}`);
  const messages: (Buffer | string)[] = [];
  let wake: (() => void) | undefined;
  socket.on('message', (data, isBinary) => {
    const bytes = data as Buffer;
    if (!isBinary && (JSON.parse(bytes.toString()) as { type: string }).type === 'status') return;
    messages.push(isBinary ? bytes : bytes.toString());
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    messages,
    /** Resolves once `match` holds for the messages received so far. */
    async until(match: (messages: (Buffer | string)[]) => boolean): Promise<void> {
      while (!match(messages)) await new Promise<void>((resolve) => (wake = resolve));
    },
    close: async () => {
      socket.close();
      await closed;
    },
    closed,
  };
}

const box = (m: Buffer | string) => (typeof m === 'string' ? 'text' : m.subarray(4, 8).toString());
/** The init message, the init segment and a fragment, in that order. */
const started = (from: number) => (messages: (Buffer | string)[]) => {
  const kinds = messages.slice(from).map(box);
  const init = kinds.indexOf('text');
  return init >= 0 && kinds[init + 1] === 'ftyp' && kinds.indexOf('moof', init + 2) > 0;
};

describe('Nest live view of an RTSP camera', () => {
  let first: ReturnType<typeof viewer>;
  let second: ReturnType<typeof viewer>;

  let porch = '';

  it('generates a stream for the first viewer; its MSE socket gets the init segment, then frames', async () => {
    const before = google.state.rtspGenerated;
    const live = await liveOf('Porch');
    porch = /\/api\/live\/([^/]+)\//.exec(live.mse_url!)![1]!;
    expect(live).toMatchObject({
      mode: 'stream',
      connection_type: 'nest',
      mse_url: expect.stringMatching(/^\/api\/live\//),
      hls_url: expect.stringMatching(/index\.m3u8/),
      notice: null,
      retry_after_s: null,
    });
    expect(google.state.rtspGenerated).toBe(before + 1);
    // Opened at once, before the pull has its first frame: the socket waits instead of being closed.
    first = viewer(live.mse_url!);
    await first.until(started(0));
    expect(JSON.parse(first.messages[0] as string)).toMatchObject({
      type: 'init',
      mime_type: expect.stringContaining('avc1'),
    });
  });

  it('shares one stream between two viewers (one Generate, one pull)', async () => {
    const before = google.state.rtspGenerated;
    const live = await liveOf('Porch');
    expect(live.stream_status).toBe('streaming');
    second = viewer(live.mse_url!);
    await second.until(started(0));
    expect(google.state.rtspGenerated).toBe(before);
    expect(rtsp.stats().players['/nest']).toBe(1);
    expect(t.modules.nest.liveSessions()).toBe(1);
  });

  it('extends the stream a minute before it expires', async () => {
    const generated = google.state.rtspGenerated;
    const extended = google.state.rtspExtended;
    await clock.advance(google.state.rtspLifeMs);
    expect(google.state.rtspExtended).toBe(extended + 1);
    expect(google.state.rtspGenerated).toBe(generated);
  });

  it('generates a new stream when extending fails and switches the viewers to it', async () => {
    const generated = google.state.rtspGenerated;
    const seen = first.messages.length;
    google.state.failExtend = true;
    try {
      await clock.advance(google.state.rtspLifeMs);
    } finally {
      google.state.failExtend = false;
    }
    expect(google.state.rtspGenerated).toBe(generated + 1);
    // The same socket goes on with the new stream: a new init message and segment, then frames.
    await first.until(started(seen));
    expect(t.modules.nest.liveSessions()).toBe(1);
  });

  it('stops the stream once the last viewer has left and the grace has passed', async () => {
    const stopped = google.state.rtspStopped;
    await first.close();
    await second.close();
    // The server heard both leave: the grace timer is waiting.
    await until(() => t.modules.nest.liveViewers(porch) === 0);
    await clock.advance(LINGER_MS - 1000);
    expect(t.modules.nest.liveSessions()).toBe(1);
    await clock.advance(2000);
    expect(t.modules.nest.liveSessions()).toBe(0);
    expect(google.state.rtspStopped).toBe(stopped + 1);
    // ffmpeg has gone: the RTSP server has no player left.
    await until(() => (rtsp.stats().players['/nest'] ?? 0) === 0);
  });

  it('stops a stream asked for but never watched after the grace', async () => {
    const stopped = google.state.rtspStopped;
    await liveOf('Porch');
    expect(t.modules.nest.liveSessions()).toBe(1);
    await clock.advance(LINGER_MS + 1000);
    expect(t.modules.nest.liveSessions()).toBe(0);
    expect(google.state.rtspStopped).toBe(stopped + 1);
  });
});

describe('HLS viewers', () => {
  it('keep the session while they ask for the playlist, and it stops once they stopped asking', async () => {
    const live = await liveOf('Porch');
    const stopped = google.state.rtspStopped;
    await clock.advance(LINGER_MS - 5000);
    // A playlist request counts as watching (whether or not a segment is ready yet).
    await fetch(`${base}${live.hls_url}`);
    await clock.advance(LINGER_MS - 5000);
    expect(t.modules.nest.liveSessions()).toBe(1);
    await clock.advance(6000);
    expect(t.modules.nest.liveSessions()).toBe(0);
    expect(google.state.rtspStopped).toBe(stopped + 1);
  });
});

describe("Google's rate limit", () => {
  it('backs off with a notice and retry_after_s, and never asks Google in a loop', async () => {
    google.state.rateLimited = true;
    try {
      const first = await liveOf('Garage');
      expect(first).toMatchObject({
        mode: 'stream',
        mse_url: null,
        hls_url: null,
        retry_after_s: 10,
        notice: 'Google is limiting live views of this camera right now; trying again in 10 s.',
      });
      expect(google.state.rateLimitedCommands).toBe(1);
      // Asked again within the back-off: the same notice, Google not asked.
      await clock.advance(4000);
      expect(await liveOf('Garage')).toMatchObject({ retry_after_s: 6, mse_url: null });
      // Time passing asks Google nothing by itself.
      await clock.advance(60_000);
      expect(google.state.rateLimitedCommands).toBe(1);
      // The next refusal doubles the wait; Google's Retry-After, when longer, is honoured.
      expect(await liveOf('Garage')).toMatchObject({ retry_after_s: 20 });
      await clock.advance(20_000);
      google.state.retryAfterS = 90;
      expect(await liveOf('Garage')).toMatchObject({ retry_after_s: 90 });
      expect(google.state.rateLimitedCommands).toBe(3);
    } finally {
      google.state.rateLimited = false;
      google.state.retryAfterS = null;
    }
    await clock.advance(90_000);
    const live = await liveOf('Garage');
    expect(live).toMatchObject({ notice: null, retry_after_s: null, mse_url: expect.any(String) });
    await clock.advance(LINGER_MS + 1000);
    expect(t.modules.nest.liveSessions()).toBe(0);
  });
});

describe('private mode', () => {
  const setPrivate = (enabled: boolean) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/cameras/Hall/settings',
      headers: owner.auth,
      payload: { is_private_mode_enabled: enabled },
    });

  it('generates no stream for a private camera, and ends a running session when it turns private', async () => {
    await liveOf('Hall');
    expect(t.modules.nest.liveSessions()).toBe(1);
    const generated = google.state.rtspGenerated;
    const stopped = google.state.rtspStopped;
    expect((await setPrivate(true)).statusCode).toBe(200);
    await until(() => t.modules.nest.liveSessions() === 0);
    await until(() => google.state.rtspStopped === stopped + 1);
    expect(await liveOf('Hall')).toMatchObject({ stream_status: 'private', mse_url: null, hls_url: null });
    expect(google.state.rtspGenerated).toBe(generated);
    await setPrivate(false);
  });

  it('generates none while the global privacy mode is on', async () => {
    const generated = google.state.rtspGenerated;
    await t.app.inject({
      method: 'POST',
      url: '/api/users/update-global-privacy-mode',
      headers: owner.auth,
      payload: { is_global_privacy_mode_enabled: true },
    });
    expect(await liveOf('Porch')).toMatchObject({ stream_status: 'private', mse_url: null });
    expect(google.state.rtspGenerated).toBe(generated);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/update-global-privacy-mode',
      headers: owner.auth,
      payload: { is_global_privacy_mode_enabled: false },
    });
  });
});

describe('a lost link', () => {
  it('ends the session when Google refuses the grant', async () => {
    await liveOf('Porch');
    expect(t.modules.nest.liveSessions()).toBe(1);
    google.state.revokeGrant = true;
    google.expireAccessTokens();
    // The extension finds the grant refused: the link is lost, the session ends.
    await clock.advance(google.state.rtspLifeMs);
    await until(() => t.modules.nest.liveSessions() === 0);
    const link = await t.app.inject({ method: 'GET', url: '/api/users/nest', headers: owner.auth });
    expect(link.json<{ data: { status: string } }>().data.status).toBe('failed');
    const generated = google.state.rtspGenerated;
    expect(await liveOf('Porch')).toMatchObject({ mse_url: null, stream_status: 'stopped' });
    expect(google.state.rtspGenerated).toBe(generated);
  });
});
