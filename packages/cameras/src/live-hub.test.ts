import { describe, expect, it } from 'vitest';
import { createFragmentBuffer } from './fragment-buffer.js';
import { createLiveHub, type LiveViewer } from './live-hub.js';
import type { InitSegment } from './mp4.js';
import type { Fragment } from './types.js';

const init: InitSegment = {
  data: Buffer.from('init'),
  tracks: [],
  mimeType: 'video/mp4; codecs="avc1.42001e"',
};

function fragment(sequence: number, keyframe: boolean): Fragment {
  return {
    data: Buffer.from(`f${sequence}`),
    keyframe,
    receivedAt: sequence * 100,
    durationMs: 100,
    sequence,
  };
}

function fakeViewer(): LiveViewer & { sent: (Buffer | string)[]; buffered: number; closed: boolean } {
  const viewer = {
    sent: [] as (Buffer | string)[],
    buffered: 0,
    closed: false,
    send: (data: Buffer | string) => void viewer.sent.push(data),
    bufferedAmount: () => viewer.buffered,
    close: () => void (viewer.closed = true),
  };
  return viewer;
}

function shown(sent: (Buffer | string)[]): string[] {
  return sent.map((data) =>
    typeof data === 'string' ? (JSON.parse(data) as { type: string }).type : data.toString(),
  );
}

function setup() {
  const buffer = createFragmentBuffer({ keepMs: 3000 });
  const hub = createLiveHub({ buffer, maxBufferedBytes: 1000 });
  const push = (f: Fragment) => {
    buffer.push(f);
    hub.onFragment(f);
  };
  return { buffer, hub, push };
}

describe('live view fan-out', () => {
  it('gives a joining viewer the mime type, the init segment, the frames since the keyframe, then live ones', () => {
    const { buffer, hub, push } = setup();
    buffer.reset(init);
    hub.onInit();
    hub.onStatus('streaming');
    [fragment(0, true), fragment(1, false), fragment(2, true), fragment(3, false)].forEach(push);
    const viewer = fakeViewer();
    hub.join(viewer);
    const live = fragment(4, false);
    push(live);
    expect(shown(viewer.sent)).toEqual(['init', 'init', 'f2', 'f3', 'status', 'f4']);
    expect(JSON.parse(viewer.sent[0] as string)).toEqual({ type: 'init', mime_type: init.mimeType });
    expect(JSON.parse(viewer.sent[4] as string)).toEqual({ type: 'status', stream_status: 'streaming' });
    // The very Buffer, not a copy.
    expect(viewer.sent[5]).toBe(live.data);
  });

  it('sends the same bytes to every viewer and starts everyone over on a new init segment', () => {
    const { buffer, hub, push } = setup();
    buffer.reset(init);
    hub.onInit();
    const a = fakeViewer();
    const b = fakeViewer();
    hub.join(a);
    hub.join(b);
    const key = fragment(0, true);
    push(key);
    expect(a.sent.at(-1)).toBe(key.data);
    expect(b.sent.at(-1)).toBe(key.data);
    buffer.reset({ ...init, data: Buffer.from('init2') });
    hub.onInit();
    push(fragment(1, false));
    push(fragment(2, true));
    expect(shown(a.sent)).toEqual(['init', 'init', 'status', 'f0', 'init', 'init2', 'f2']);
    expect(shown(b.sent)).toEqual(shown(a.sent));
  });

  it('lets a slow viewer drop frames until the next keyframe instead of falling behind', () => {
    const { buffer, hub, push } = setup();
    buffer.reset(init);
    hub.onInit();
    const slow = fakeViewer();
    const fast = fakeViewer();
    hub.join(slow);
    hub.join(fast);
    push(fragment(0, true));
    slow.buffered = 5000;
    push(fragment(1, false));
    slow.buffered = 0;
    push(fragment(2, false));
    push(fragment(3, true));
    push(fragment(4, false));
    expect(shown(slow.sent)).toEqual(['init', 'init', 'status', 'f0', 'f3', 'f4']);
    expect(shown(fast.sent)).toEqual(['init', 'init', 'status', 'f0', 'f1', 'f2', 'f3', 'f4']);
  });

  it('tells viewers when the stream status changes, and closes them when it stops', () => {
    const { hub } = setup();
    const viewer = fakeViewer();
    const leave = hub.join(viewer);
    hub.onStatus('streaming');
    hub.onStatus('streaming');
    hub.onStatus('reconnecting');
    expect(viewer.sent.map((m) => JSON.parse(m as string) as unknown)).toEqual([
      { type: 'status', stream_status: 'connecting' },
      { type: 'status', stream_status: 'streaming' },
      { type: 'status', stream_status: 'reconnecting' },
    ]);
    const other = fakeViewer();
    hub.join(other);
    leave();
    expect(hub.viewers()).toBe(1);
    hub.close();
    expect(other.closed).toBe(true);
    expect(viewer.closed).toBe(false);
    expect(hub.viewers()).toBe(0);
  });

  it('forgets a viewer whose send throws', () => {
    const { buffer, hub, push } = setup();
    buffer.reset(init);
    const broken = {
      ...fakeViewer(),
      send: () => {
        throw new Error('socket closed');
      },
    };
    hub.join(broken);
    push(fragment(0, true));
    expect(hub.viewers()).toBe(0);
  });
});
