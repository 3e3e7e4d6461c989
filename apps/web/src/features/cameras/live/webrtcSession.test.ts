import type { WebRtcSession } from '@homesitter/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWebRtcSession, type WebRtcApi, type WebRtcSessionEvent } from './webrtcSession';

/** A fake RTCPeerConnection recording what the session does with it; `showTrack` plays Google's part. */
class FakePeer extends EventTarget {
  static all: FakePeer[] = [];
  readonly made: string[] = [];
  iceGatheringState: RTCIceGatheringState = 'complete';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  closed = false;
  readonly stream = { id: `stream-${FakePeer.all.length + 1}` } as unknown as MediaStream;
  constructor() {
    super();
    FakePeer.all.push(this);
  }
  addTransceiver(kind: string, init: RTCRtpTransceiverInit) {
    this.made.push(`${kind} ${init.direction}`);
  }
  createDataChannel(label: string) {
    this.made.push(`data ${label}`);
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: `v=0\r\n${this.made.join('\r\n')}` };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
  }
  close() {
    this.closed = true;
  }
  showTrack() {
    this.dispatchEvent(
      Object.assign(new Event('track'), { track: { kind: 'video' }, streams: [this.stream] }),
    );
  }
}

const T0 = Date.parse('2026-01-01T10:00:00Z');
const session = (n: number, extendable = true): WebRtcSession => ({
  session_id: `s${n}`,
  answer_sdp: `v=0\r\nanswer ${n}`,
  expires_at: new Date(Date.now() + 5 * 60_000).toISOString(),
  extendable,
});

function setup(api: Partial<WebRtcApi> = {}) {
  let started = 0;
  const calls = {
    start: vi.fn(api.start ?? (async () => session(++started))),
    extend: vi.fn(
      api.extend ?? (async () => ({ expires_at: new Date(Date.now() + 5 * 60_000).toISOString() })),
    ),
    stop: vi.fn(),
  };
  const video = {
    srcObject: null as MediaProvider | null,
    paused: false,
    play: vi.fn(async () => undefined),
  };
  const events: WebRtcSessionEvent[] = [];
  const live = startWebRtcSession({
    video,
    api: calls,
    onEvent: (e) => events.push(e),
    createPeer: () => new FakePeer() as unknown as RTCPeerConnection,
  });
  return { calls, video, events, live };
}

/** Lets the session's promise chains run, without moving the clock (vi.waitFor would advance fake timers). */
async function settle() {
  for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  FakePeer.all = [];
});
afterEach(() => vi.useRealTimers());

describe('the WebRTC live session', () => {
  it("offers audio and video recvonly and a data channel, in Google's order, and plays the answer's video", async () => {
    const { calls, video, events } = setup();
    await settle();
    expect(FakePeer.all[0]?.remoteDescription).not.toBeNull();
    const peer = FakePeer.all[0]!;
    expect(peer.made).toEqual(['audio recvonly', 'video recvonly', 'data dataSendChannel']);
    expect(calls.start).toHaveBeenCalledWith(peer.localDescription!.sdp);
    expect(peer.remoteDescription).toEqual({ type: 'answer', sdp: 'v=0\r\nanswer 1' });
    peer.showTrack();
    expect(video.srcObject).toBe(peer.stream);
    await settle();
    expect(events).toContainEqual({ type: 'opened' });
  });

  it('extends a minute before the stream ends, and again after each extension', async () => {
    const { calls } = setup();
    await settle();
    expect(FakePeer.all[0]?.remoteDescription).not.toBeNull();
    FakePeer.all[0]!.showTrack();
    await vi.advanceTimersByTimeAsync(4 * 60_000 - 1);
    expect(calls.extend).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.extend).toHaveBeenCalledWith('s1');
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(calls.extend).toHaveBeenCalledTimes(2);
    expect(calls.start).toHaveBeenCalledTimes(1);
  });

  it('on 409 makes a new offer and swaps the picture only once the new stream plays (no black gap)', async () => {
    const { calls, video } = setup({
      extend: async () => {
        throw Object.assign(new Error('make a new offer'), { status: 409 });
      },
    });
    await settle();
    expect(FakePeer.all[0]?.remoteDescription).not.toBeNull();
    const first = FakePeer.all[0]!;
    first.showTrack();
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    await settle();
    expect(FakePeer.all[1]?.remoteDescription).not.toBeNull();
    // The old picture stays until the new one arrives.
    expect(video.srcObject).toBe(first.stream);
    expect(first.closed).toBe(false);
    FakePeer.all[1]!.showTrack();
    expect(video.srcObject).toBe(FakePeer.all[1]!.stream);
    expect(first.closed).toBe(true);
    expect(calls.stop).toHaveBeenCalledWith('s1');
  });

  it('a camera that cannot extend (battery) gets a new stream without asking to extend', async () => {
    let n = 0;
    const { calls } = setup({ start: async () => session(++n, false) });
    await settle();
    expect(FakePeer.all[0]?.remoteDescription).not.toBeNull();
    FakePeer.all[0]!.showTrack();
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    await settle();
    expect(calls.start).toHaveBeenCalledTimes(2);
    expect(calls.extend).not.toHaveBeenCalled();
  });

  it("Google's rate limit: the notice, no new offer before retry_after, then one; after the last, Retry is left", async () => {
    const limited = Object.assign(new Error('limited'), { status: 429, retryAfterSeconds: 30 });
    const { calls, events } = setup({
      start: async () => {
        throw limited;
      },
    });
    await settle();
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ type: 'notice', message: 'limited', retryAfterS: 30 });
    expect(FakePeer.all[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(calls.start).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.start).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.start).toHaveBeenCalledTimes(3);
    expect(events.at(-1)).toEqual({ type: 'notice', message: 'limited', retryAfterS: null });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls.start).toHaveBeenCalledTimes(3);
  });

  it('closing stops the stream at the server and closes the connection', async () => {
    const { calls, live, video } = setup();
    await settle();
    expect(FakePeer.all[0]?.remoteDescription).not.toBeNull();
    FakePeer.all[0]!.showTrack();
    live.close();
    expect(FakePeer.all[0]!.closed).toBe(true);
    expect(calls.stop).toHaveBeenCalledWith('s1');
    expect(video.srcObject).toBeNull();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls.extend).not.toHaveBeenCalled();
  });

  it('a failed offer (not a rate limit) ends the session as failed', async () => {
    const { events } = setup({
      start: async () => {
        throw Object.assign(new Error('private'), { status: 409 });
      },
    });
    await settle();
    expect(events).toEqual([{ type: 'failed', reason: 'socket' }]);
  });
});
