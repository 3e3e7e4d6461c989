import type { CameraLive, WebRtcSession } from '@homesitter/contract';
import { RTCPeerConnection, type RtpPacket } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { sdmDevice, startFakeGoogle, type FakeGoogle } from '../../../test/fake-google.js';
import { LOOPBACK_PEER } from '../../../test/fake-nest-camera.js';
import { NestProviderError } from './nest.google.js';
import { createNestWebRtc, type WebRtcCommands } from './nest.webrtc.js';
import type { NestDeviceRow } from './nest.repository.js';
import { linkNest } from '../../../test/nest-link.js';

let t: TestApp;
let google: FakeGoogle;
let who: TestUser;
const P = 'test-project';
const WIRED = 'Porch';
const BATTERY = 'Garden';
const OLD = 'Hallway';

beforeAll(async () => {
  google = await startFakeGoogle(P);
  t = await createTestApp({ env: google.env, chatAnswers: false });
  google.state.devices = [
    sdmDevice(P, 'wired', { customName: WIRED, protocols: ['WEB_RTC'] }),
    sdmDevice(P, 'battery', { type: 'DOORBELL', customName: BATTERY, protocols: ['WEB_RTC'] }),
    sdmDevice(P, 'rtsp', { customName: OLD, protocols: ['RTSP'] }),
  ];
  google.state.batteryDevices.add('battery');
  who = await signUp(t);
  await linkNest(t, who);
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const base = (name: string) => `/api/users/cameras/${encodeURIComponent(name)}/live`;
const offerFor = (as: TestUser, name: string, offer_sdp: string) =>
  t.app.inject({ method: 'POST', url: `${base(name)}/webrtc`, headers: as.auth, payload: { offer_sdp } });
const extend = (name: string, id: string) =>
  t.app.inject({ method: 'POST', url: `${base(name)}/webrtc/${id}/extend`, headers: who.auth });
const stop = (name: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `${base(name)}/webrtc/${id}`, headers: who.auth });

/** The browser's side, as the live player builds it: audio and video recvonly, then a data channel. */
async function browserPeer() {
  const pc = new RTCPeerConnection(LOOPBACK_PEER);
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.createDataChannel('dataSendChannel');
  await pc.setLocalDescription(await pc.createOffer());
  const video = new Promise<RtpPacket>((resolve) => {
    pc.onTrack.subscribe((track) => {
      if (track.kind === 'video') track.onReceiveRtp.subscribe((packet) => resolve(packet));
    });
  });
  return { pc, offer: pc.localDescription!.sdp, video };
}

/** A stand-in offer for the calls that never reach a peer (refused before Google, or Google limiting). */
async function someOffer() {
  const { pc, offer } = await browserPeer();
  await pc.close();
  return offer;
}

describe('a WebRTC-only Nest camera', () => {
  it("answers GET /live with mode webrtc (no stream URLs); an RTSP camera's stays stream", async () => {
    const live = await t.app.inject({ method: 'GET', url: base(WIRED), headers: who.auth });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json<{ data: CameraLive }>().data).toMatchObject({
      mode: 'webrtc',
      connection_type: 'nest',
      mse_url: null,
      hls_url: null,
    });
    const old = await t.app.inject({ method: 'GET', url: base(OLD), headers: who.auth });
    expect(old.json<{ data: CameraLive }>().data.mode).toBe('stream');
  });

  it("plays: the browser's offer reaches the camera, its answer connects, video RTP arrives; extend, stop", async () => {
    const browser = await browserPeer();
    const res = await offerFor(who, WIRED, browser.offer);
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json<{ data: WebRtcSession }>().data;
    expect(session.extendable).toBe(true);
    expect(session.answer_sdp.startsWith('v=0')).toBe(true);
    // Our id, not Google's media session.
    expect(google.webrtcPeers()).toHaveLength(1);
    await browser.pc.setRemoteDescription({ type: 'answer', sdp: session.answer_sdp });
    const packet = await browser.video;
    expect(packet.payload.length).toBeGreaterThan(0);
    expect(browser.pc.connectionState).toBe('connected');

    const extended = await extend(WIRED, session.session_id);
    expect(extended.statusCode, extended.body).toBe(200);
    expect(google.state.webrtcExtended).toBe(1);
    expect(Date.parse(extended.json<{ data: { expires_at: string } }>().data.expires_at)).toBeGreaterThan(
      Date.now(),
    );

    const stopped = google.state.webrtcStopped;
    expect((await stop(WIRED, session.session_id)).statusCode).toBe(200);
    expect(google.state.webrtcStopped).toBe(stopped + 1);
    expect(google.webrtcPeers()).toHaveLength(0);
    // Gone: a second stop or an extension finds nothing.
    expect((await stop(WIRED, session.session_id)).statusCode).toBe(404);
    expect((await extend(WIRED, session.session_id)).statusCode).toBe(404);
    await browser.pc.close();
  });

  it('a battery camera refuses to extend: 409 asks for a new offer, and its next streams say so', async () => {
    const first = await offerFor(who, BATTERY, await someOffer());
    expect(first.statusCode, first.body).toBe(201);
    const session = first.json<{ data: WebRtcSession }>().data;
    const res = await extend(BATTERY, session.session_id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'live.webrtc_new_offer' });
    const again = await offerFor(who, BATTERY, await someOffer());
    expect(again.json<{ data: WebRtcSession }>().data.extendable).toBe(false);
    // Known now: refused here, Google is not asked to extend again.
    const extended = google.state.webrtcExtended;
    const second = await extend(BATTERY, again.json<{ data: WebRtcSession }>().data.session_id);
    expect(second.statusCode).toBe(409);
    expect(google.state.webrtcExtended).toBe(extended);
  });

  it("Google's 429: a message with retryAfterSeconds, and no second call to Google within the back-off", async () => {
    const user = await signUp(t);
    await linkNest(t, user);
    const offer = await someOffer();
    google.state.rateLimited = true;
    google.state.retryAfterS = 40;
    const generated = google.state.webrtcGenerated;
    try {
      const res = await offerFor(user, WIRED, offer);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'live.rate_limited', retryAfterSeconds: 40 });
      expect(res.json<{ message: string }>().message).toContain('40 seconds');
      google.state.rateLimited = false;
      // The viewer clicks again at once: answered from the back-off, Google is not asked.
      const again = await offerFor(user, WIRED, offer);
      expect(again.statusCode).toBe(429);
      expect(again.json<{ retryAfterSeconds: number }>().retryAfterSeconds).toBeLessThanOrEqual(40);
      expect(google.state.webrtcGenerated).toBe(generated);
    } finally {
      google.state.rateLimited = false;
      google.state.retryAfterS = null;
    }
  });

  it('refuses a private camera, bad SDP, an RTSP camera and another user’s camera, generating nothing', async () => {
    const generated = google.state.webrtcGenerated;
    const offer = await someOffer();
    const tooLong = `v=0\r\n${'a=x\r\n'.repeat(14_000)}`;
    for (const sdp of ['', 'm=video 9 UDP/TLS/RTP/SAVPF 96', tooLong]) {
      const res = await offerFor(who, WIRED, sdp);
      expect(res.statusCode, sdp.slice(0, 20)).toBe(400);
    }
    const rtsp = await offerFor(who, OLD, offer);
    expect(rtsp.statusCode).toBe(409);
    expect(rtsp.json()).toMatchObject({ code: 'live.not_webrtc' });

    const stranger = await signUp(t);
    expect((await offerFor(stranger, WIRED, offer)).statusCode).toBe(404);

    const priv = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-camera',
      headers: who.auth,
      payload: { name: WIRED, settings: { is_private_mode_enabled: true } },
    });
    expect(priv.statusCode, priv.body).toBe(200);
    const res = await offerFor(who, WIRED, offer);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'live.private',
      message: 'Private mode is on: nothing is recorded or shown',
    });
    const live = await t.app.inject({ method: 'GET', url: base(WIRED), headers: who.auth });
    expect(live.json<{ data: CameraLive }>().data).toMatchObject({
      mode: 'webrtc',
      stream_status: 'private',
    });
    expect(google.state.webrtcGenerated).toBe(generated);
  });
});

describe('WebRTC sessions over time (an injected clock)', () => {
  const device: NestDeviceRow = {
    cameraId: 'cam-1',
    userId: 'user-1',
    deviceName: `enterprises/${P}/devices/d1`,
    kind: 'camera',
    protocols: ['WEB_RTC'],
    traits: [],
  } as unknown as NestDeviceRow;

  function setup() {
    let at = Date.parse('2026-01-01T10:00:00Z');
    const calls: string[] = [];
    let limited = false;
    const commands: WebRtcCommands = {
      generate: async () => {
        calls.push('generate');
        if (limited) throw new NestProviderError('GenerateWebRtcStream answered 429', 429);
        return { answerSdp: 'v=0', mediaSessionId: 'g1', expiresAt: new Date(at + 5 * 60_000) };
      },
      extend: async () => {
        calls.push('extend');
        return { mediaSessionId: 'g2', expiresAt: new Date(at + 5 * 60_000) };
      },
      stop: async (_user, _device, id) => void calls.push(`stop ${id}`),
    };
    const webrtc = createNestWebRtc({
      repo: { deviceOfCamera: async (id) => (id === device.cameraId ? device : undefined) },
      commands,
      cameras: {
        ofUser: async () => [
          {
            id: 'cam-1',
            userId: 'user-1',
            name: 'Porch',
            configurationStatus: 'configured',
            isPrivate: false,
            removed: false,
          },
        ],
      },
      log: { warn: () => undefined } as never,
      now: () => new Date(at),
    });
    return {
      webrtc,
      calls,
      advance: (ms: number) => void (at += ms),
      limit: (on: boolean) => void (limited = on),
    };
  }

  it('a session not extended expires by itself: its late extension is told to make a new offer', async () => {
    const { webrtc, calls, advance } = setup();
    const s = await webrtc.start('user-1', 'cam-1', 'v=0');
    advance(60_000);
    await webrtc.extend('user-1', 'cam-1', s.session_id);
    expect(calls).toEqual(['generate', 'extend']);
    advance(5 * 60_000 + 1);
    expect(webrtc.openSessions()).toBe(0);
    await expect(webrtc.extend('user-1', 'cam-1', s.session_id)).rejects.toMatchObject({
      status: 409,
      code: 'live.webrtc_new_offer',
    });
    // Nothing left to stop at Google on shutdown.
    await webrtc.close();
    expect(calls).toEqual(['generate', 'extend']);
  });

  it('stops the open streams at shutdown with the latest media session id', async () => {
    const { webrtc, calls } = setup();
    const s = await webrtc.start('user-1', 'cam-1', 'v=0');
    await webrtc.extend('user-1', 'cam-1', s.session_id);
    await webrtc.close();
    expect(calls).toEqual(['generate', 'extend', 'stop g2']);
  });

  it('asks Google again only once the back-off has passed (10 s after a first 429 without Retry-After)', async () => {
    const { webrtc, calls, advance, limit } = setup();
    limit(true);
    await expect(webrtc.start('user-1', 'cam-1', 'v=0')).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 10,
    });
    limit(false);
    advance(9_000);
    await expect(webrtc.start('user-1', 'cam-1', 'v=0')).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 1,
    });
    expect(calls).toEqual(['generate']);
    advance(1_000);
    await webrtc.start('user-1', 'cam-1', 'v=0');
    expect(calls).toEqual(['generate', 'generate']);
  });
});
