import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeEnv, FakeMediaSource, FakeSocket, fakeVideo, resetLiveFakes } from '../../../test/liveFakes';
import { browserSupport, pickEngines } from './engine';
import { startMseSession, type LiveSessionEvent } from './mseSession';

const MIME = 'video/mp4; codecs="avc1.64001f"';

async function startSession(overrides: { getUrl?: () => string } = {}) {
  const video = fakeVideo();
  const events: LiveSessionEvent[] = [];
  const getUrl = vi.fn(overrides.getUrl ?? (() => 'ws://localhost/api/live/1/mse?sig=a'));
  const session = startMseSession({
    video,
    mimeType: MIME,
    getUrl,
    onEvent: (e) => events.push(e),
    env: fakeEnv(),
  });
  await vi.waitFor(() => expect(FakeSocket.instances.length).toBeGreaterThan(0));
  const socket = FakeSocket.instances[0]!;
  const source = FakeMediaSource.instances[0]!;
  return { video, events, getUrl, session, socket, source };
}

beforeEach(resetLiveFakes);
afterEach(() => vi.useRealTimers());

describe('live video over MSE', () => {
  it('appends the init segment, then each fragment in order, one at a time, and starts at the live edge', async () => {
    const { video, socket, source, events } = await startSession();
    expect(video.src).toBe('blob:live');
    expect(socket.binaryType).toBe('arraybuffer');
    source.open();
    socket.open();
    expect(events).toContainEqual({ type: 'opened' });

    socket.text({ type: 'init', mime_type: MIME });
    socket.binary(0); // init segment
    socket.binary(1);
    socket.binary(2);
    const buffer = source.buffers[0]!;
    expect(source.types).toEqual([MIME]);
    expect(buffer.mode).toBe('sequence');
    expect(buffer.log).toEqual(['append:0']); // the others wait for updateend

    buffer.finish();
    expect(buffer.log).toEqual(['append:0', 'append:1']);
    buffer.finish([[0, 0.5]]);
    expect(video.currentTime).toBeCloseTo(0.2);
    expect(video.play).toHaveBeenCalled();
    expect(buffer.log).toEqual(['append:0', 'append:1', 'append:2']);
    socket.binary(3);
    buffer.finish([[0, 1]]);
    buffer.finish([[0, 1.5]]);
    expect(buffer.log).toEqual(['append:0', 'append:1', 'append:2', 'append:3']);
  });

  it('resets the buffer when a new init arrives (the camera reconnected upstream)', async () => {
    const { socket, source } = await startSession();
    source.open();
    socket.open();
    socket.text({ type: 'init', mime_type: MIME });
    socket.binary(0);
    socket.binary(1);
    const buffer = source.buffers[0]!;
    buffer.finish();
    buffer.finish([[0, 4]]);
    socket.binary(2); // appending now
    expect(buffer.updating).toBe(true);

    socket.text({ type: 'status', stream_status: 'reconnecting' });
    socket.text({ type: 'init', mime_type: MIME });
    socket.binary(7); // the new init segment
    socket.binary(8);
    expect(buffer.log.slice(-2)).toEqual(['abort', 'remove:0-4']);
    buffer.finish([]);
    expect(buffer.log.at(-1)).toBe('append:7');
    buffer.finish([]);
    expect(buffer.log.at(-1)).toBe('append:8');
    expect(source.buffers).toHaveLength(1);
  });

  it('reports the camera status the socket sends', async () => {
    const { socket, source, events } = await startSession();
    source.open();
    socket.open();
    socket.text({ type: 'status', stream_status: 'reconnecting' });
    socket.text({ type: 'status', stream_status: 'nonsense' });
    expect(events.filter((e) => e.type === 'status')).toEqual([{ type: 'status', status: 'reconnecting' }]);
  });

  it('gives up at once when the socket never opens (the player then falls back to HLS)', async () => {
    const { socket, events } = await startSession();
    socket.drop();
    expect(events).toEqual([{ type: 'failed', reason: 'socket' }]);
  });

  it('reconnects with a fresh address after an unexpected close, and stops on close()', async () => {
    vi.useFakeTimers();
    const { socket, events, getUrl, session, video } = await startSession();
    socket.open();
    socket.drop();
    expect(events.at(-1)).toEqual({ type: 'reconnecting', attempt: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(getUrl).toHaveBeenCalledTimes(2);

    session.close();
    expect(FakeSocket.instances[1]!.closed).toBe(true);
    expect(video.removeAttribute).toHaveBeenCalledWith('src');
  });

  it('fails when the browser cannot play the type the socket announces', async () => {
    const { socket, source, events } = await startSession();
    source.open();
    socket.open();
    FakeMediaSource.supported = false;
    socket.text({ type: 'init', mime_type: 'video/mp4; codecs="hvc1"' });
    expect(events.at(-1)).toEqual({ type: 'failed', reason: 'unsupported' });
  });
});

describe('choosing how to play', () => {
  const live = { mse_url: '/api/live/1/mse', hls_url: '/api/live/1/index.m3u8', mime_type: MIME };

  it('uses MSE first, HLS as the fallback', () => {
    expect(pickEngines(live, { mse: fakeEnv(), nativeHls: false })).toEqual(['mse', 'hls']);
  });

  it('tries MSE while the stream’s type is not known yet (the socket tells it)', () => {
    expect(pickEngines({ ...live, mime_type: null }, { mse: fakeEnv(), nativeHls: false })).toEqual([
      'mse',
      'hls',
    ]);
  });

  it('falls back to HLS when MSE cannot play the type, or is missing', () => {
    FakeMediaSource.supported = false;
    expect(pickEngines(live, { mse: fakeEnv(), nativeHls: false })).toEqual(['hls']);
    expect(pickEngines(live, { mse: null, nativeHls: true })).toEqual(['native-hls']);
    expect(browserSupport(null).mse).toBeNull();
  });
});
