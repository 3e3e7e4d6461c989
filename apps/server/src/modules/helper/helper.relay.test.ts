import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../platform/logger.js';
import { createRelay } from './helper.relay.js';

/** The relay's rules alone, on fake timers: when the helper is asked to relay, and told to stop. */
function relay(options: { bridged?: () => boolean } = {}) {
  const calls = { starts: 0, idle: 0 };
  const closes: string[] = [];
  const instance = createRelay({
    cameraId: 'c1',
    log: createLogger('silent'),
    lingerMs: 30_000,
    retryMs: 2_000,
    requestStart: () => {
      if (!(options.bridged?.() ?? true)) return false;
      calls.starts += 1;
      return true;
    },
    onIdle: () => void (calls.idle += 1),
    now: () => Date.now(),
  });
  const socket = { close: (_code: number, reason: string) => void closes.push(reason) };
  return { instance, calls, closes, socket };
}

const viewer = () => ({ send: vi.fn(), bufferedAmount: () => 0, close: vi.fn() });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a live relay of a bridged camera', () => {
  it('asks the helper once for any number of viewers, and stops 30 s after the last one left', () => {
    const { instance, calls, closes, socket } = relay();
    const leaveA = instance.join(viewer());
    const leaveB = instance.join(viewer());
    expect(calls.starts).toBe(1);
    instance.attach(socket);
    leaveA();
    leaveB();
    vi.advanceTimersByTime(29_999);
    expect(calls.idle).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.idle).toBe(1);
    expect(closes).toEqual(['live-stop']);
  });

  it('keeps relaying while the HLS playlist is asked for', () => {
    const { instance, calls } = relay();
    expect(instance.hls.playlist('q')).toBeUndefined();
    expect(calls.starts).toBe(1);
    vi.advanceTimersByTime(20_000);
    instance.hls.playlist('q');
    vi.advanceTimersByTime(20_000);
    expect(calls.idle).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(calls.idle).toBe(1);
  });

  it('asks again when the relay breaks off while someone watches, and when a helper bridges it again', () => {
    let bridged = true;
    const { instance, calls, socket } = relay({ bridged: () => bridged });
    const watcher = viewer();
    instance.join(watcher);
    instance.attach(socket);
    instance.detach(socket);
    expect(watcher.send).toHaveBeenLastCalledWith(
      JSON.stringify({ type: 'status', stream_status: 'reconnecting' }),
    );
    vi.advanceTimersByTime(2_000);
    expect(calls.starts).toBe(2);

    bridged = false;
    instance.bridgeLost();
    vi.advanceTimersByTime(60_000);
    expect(calls.starts).toBe(2);
    bridged = true;
    instance.bridged();
    expect(calls.starts).toBe(3);
  });

  it('closes its viewers when it ends (private mode, the camera gone)', () => {
    const { instance, socket, closes } = relay();
    const watcher = viewer();
    instance.join(watcher);
    instance.attach(socket);
    instance.close('camera not relayed');
    expect(watcher.close).toHaveBeenCalled();
    expect(closes).toEqual(['camera not relayed']);
  });
});
