import { vi } from 'vitest';
import type { LiveVideo, MseEnvironment } from '../features/cameras/live/mseSession';

/** Fakes of the browser's Media Source Extensions and WebSocket, recording what the player does. */

export class FakeTimeRanges implements TimeRanges {
  constructor(private readonly ranges: [number, number][] = []) {}
  get length() {
    return this.ranges.length;
  }
  start(i: number) {
    return this.ranges[i]![0];
  }
  end(i: number) {
    return this.ranges[i]![1];
  }
}

export class FakeSourceBuffer extends EventTarget {
  mode = 'segments';
  updating = false;
  buffered: TimeRanges = new FakeTimeRanges();
  /** `append:<first byte>`, `remove:<start>-<end>`, `abort`, in order. */
  readonly log: string[] = [];
  appendBuffer(data: Uint8Array) {
    this.log.push(`append:${data[0]}`);
    this.updating = true;
  }
  remove(start: number, end: number) {
    this.log.push(`remove:${start}-${end}`);
    this.updating = true;
  }
  abort() {
    this.log.push('abort');
    this.updating = false;
  }
  /** The browser finished the current operation; `ranges` is what is buffered now. */
  finish(ranges?: [number, number][]) {
    if (ranges) this.buffered = new FakeTimeRanges(ranges);
    this.updating = false;
    this.dispatchEvent(new Event('updateend'));
  }
}

export class FakeMediaSource extends EventTarget {
  static instances: FakeMediaSource[] = [];
  static supported = true;
  static isTypeSupported(_type: string) {
    return FakeMediaSource.supported;
  }
  readyState: ReadyState = 'closed';
  readonly buffers: FakeSourceBuffer[] = [];
  readonly types: string[] = [];
  constructor() {
    super();
    FakeMediaSource.instances.push(this);
  }
  addSourceBuffer(type: string) {
    const buffer = new FakeSourceBuffer();
    this.buffers.push(buffer);
    this.types.push(type);
    return buffer;
  }
  open() {
    this.readyState = 'open';
    this.dispatchEvent(new Event('sourceopen'));
  }
}

export class FakeSocket {
  static instances: FakeSocket[] = [];
  binaryType = 'blob';
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  text(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  binary(...bytes: number[]) {
    this.onmessage?.({ data: Uint8Array.from(bytes).buffer });
  }
  drop() {
    this.onclose?.(new Event('close'));
  }
}

export function resetLiveFakes() {
  FakeMediaSource.instances = [];
  FakeMediaSource.supported = true;
  FakeSocket.instances = [];
}

export function fakeEnv(): MseEnvironment {
  return {
    // The fakes implement what the session calls; the DOM types ask for far more.
    MediaSource: FakeMediaSource as unknown as MseEnvironment['MediaSource'],
    managed: false,
    WebSocket: FakeSocket as unknown as MseEnvironment['WebSocket'],
    createObjectURL: () => 'blob:live',
    revokeObjectURL: vi.fn(),
  };
}

/** A media element whose buffer is the fake MediaSource's first SourceBuffer. */
export function fakeVideo() {
  const video = {
    currentTime: 0,
    playbackRate: 1,
    src: '',
    disableRemotePlayback: false,
    get buffered(): TimeRanges {
      return FakeMediaSource.instances.at(-1)?.buffers[0]?.buffered ?? new FakeTimeRanges();
    },
    play: vi.fn(() => Promise.resolve()),
    load: vi.fn(),
    removeAttribute: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  };
  // Only what the session reads and writes is there.
  return video as typeof video & LiveVideo;
}
