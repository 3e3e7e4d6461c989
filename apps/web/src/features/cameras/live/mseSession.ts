import { CAMERA_STREAM_STATUSES, type CameraStreamStatus } from '@homesitter/contract/runtime';
import { LIVE_EDGE, staleRange, steerToLiveEdge } from './liveEdge';

/** What the session needs of the browser; tests hand in fakes. */
export interface MseEnvironment {
  MediaSource: { new (): MediaSource; isTypeSupported(type: string): boolean };
  /** `ManagedMediaSource` (iOS Safari 17+): it only opens when remote playback is off. */
  managed: boolean;
  WebSocket: { new (url: string): WebSocket };
  createObjectURL(source: MediaSource): string;
  revokeObjectURL(url: string): void;
}

/** The globals MSE lives in; any of them may be missing (an old browser, a test's DOM). */
interface MseGlobals {
  ManagedMediaSource?: MseEnvironment['MediaSource'];
  MediaSource?: MseEnvironment['MediaSource'];
  WebSocket?: MseEnvironment['WebSocket'];
}

/** The browser's Media Source Extensions (the managed kind first), or null where there are none. */
export function browserMse(win: MseGlobals = window): MseEnvironment | null {
  const managed = win.ManagedMediaSource;
  const Source = managed ?? win.MediaSource;
  if (!Source || !win.WebSocket) return null;
  return {
    MediaSource: Source,
    managed: Boolean(managed),
    WebSocket: win.WebSocket,
    createObjectURL: (source) => URL.createObjectURL(source),
    revokeObjectURL: (url) => URL.revokeObjectURL(url),
  };
}

/** The media element as the session uses it. */
export type LiveVideo = Pick<
  HTMLVideoElement,
  | 'currentTime'
  | 'playbackRate'
  | 'buffered'
  | 'src'
  | 'play'
  | 'load'
  | 'removeAttribute'
  | 'addEventListener'
  | 'removeEventListener'
  | 'disableRemotePlayback'
>;

export type LiveSessionEvent =
  /** The socket is open (the first time, or again after a reconnect). */
  | { type: 'opened' }
  /** The socket closed unexpectedly; the next attempt follows after a pause. */
  | { type: 'reconnecting'; attempt: number }
  /** The server's word on the camera's upstream (`{"type":"status"}`). */
  | { type: 'status'; status: CameraStreamStatus }
  /** The browser refused to start playback by itself (autoplay policy): a tap is needed. */
  | { type: 'blocked' }
  /**
   * The session gave up: `socket` when the socket never opened or every reconnect failed, `media` when the
   * browser could not decode or buffer, `unsupported` when it cannot play the announced type.
   */
  | { type: 'failed'; reason: 'socket' | 'media' | 'unsupported' };

/** Pauses between reconnect attempts of the socket; after the last one the session fails. */
export const SOCKET_RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000] as const;

export interface MseSessionOptions {
  video: LiveVideo;
  /** From `/live`; the socket's own `init` message overrides it. */
  mimeType: string;
  /** The socket address to use now (a fresh one when the last has expired). */
  getUrl: () => string | Promise<string>;
  onEvent: (event: LiveSessionEvent) => void;
  env: MseEnvironment;
  reconnectDelaysMs?: readonly number[];
}

export interface LiveSession {
  close(): void;
}

type Operation =
  { kind: 'append'; data: Uint8Array<ArrayBuffer> } | { kind: 'remove'; start: number; end: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isStreamStatus(value: unknown): value is CameraStreamStatus {
  return CAMERA_STREAM_STATUSES.some((s) => s === value);
}

function isQuotaExceeded(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

/**
 * Live video over a WebSocket into Media Source Extensions: the socket sends a text `init` (the MIME type),
 * one binary init segment, then fMP4 fragments; after an upstream reconnect it sends `init` and a new init
 * segment again, which resets the buffer. Fragments are appended one at a time (`sequence` mode, so a new
 * upstream continues the timeline), the past beyond ~10 s is removed, and playback is kept at the live edge.
 * An unexpected close reconnects with growing pauses.
 */
export function startMseSession(options: MseSessionOptions): LiveSession {
  const { env, video, onEvent } = options;
  const delays = options.reconnectDelaysMs ?? SOCKET_RECONNECT_DELAYS_MS;

  let closed = false;
  let failed = false;
  let socket: WebSocket | null = null;
  let everOpened = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  let mediaSource: MediaSource;
  let objectUrl = '';
  let sourceBuffer: SourceBuffer | null = null;
  let bufferMime: string | null = null;
  let announcedMime = options.mimeType;
  /** A text `init` came: the next binary message is its init segment. */
  let awaitingInit = false;
  /** An init segment is in (or waiting for the MediaSource to open): fragments may follow it. */
  let haveInit = false;
  let pendingInit: Uint8Array<ArrayBuffer> | null = null;
  const queue: Operation[] = [];
  let started = false;
  let lastEnd: number | null = null;
  let fragmentS = 0;

  function fail(reason: 'socket' | 'media' | 'unsupported') {
    if (failed || closed) return;
    failed = true;
    stopSocket();
    onEvent({ type: 'failed', reason });
  }

  // --- Media Source ---------------------------------------------------------------------------------

  function openMediaSource() {
    mediaSource = new env.MediaSource();
    objectUrl = env.createObjectURL(mediaSource);
    if (env.managed) video.disableRemotePlayback = true;
    mediaSource.addEventListener('sourceopen', onSourceOpen, { once: true });
    video.src = objectUrl;
  }

  function detachMediaSource() {
    mediaSource.removeEventListener('sourceopen', onSourceOpen);
    if (sourceBuffer) {
      sourceBuffer.removeEventListener('updateend', onUpdateEnd);
      sourceBuffer.removeEventListener('error', onBufferError);
    }
    sourceBuffer = null;
    bufferMime = null;
    queue.length = 0;
    started = false;
    lastEnd = null;
    if (objectUrl) env.revokeObjectURL(objectUrl);
    objectUrl = '';
  }

  function onSourceOpen() {
    if (closed || !pendingInit) return;
    const init = pendingInit;
    pendingInit = null;
    if (!createSourceBuffer(announcedMime)) return;
    queue.unshift({ kind: 'append', data: init });
    pump();
  }

  function createSourceBuffer(mime: string): boolean {
    try {
      sourceBuffer = mediaSource.addSourceBuffer(mime);
    } catch {
      fail('unsupported');
      return false;
    }
    bufferMime = mime;
    try {
      // Timestamps follow on from what is buffered: a new upstream (new init) needs no offset.
      sourceBuffer.mode = 'sequence';
    } catch {
      // Some engines keep `segments` mode: the camera's own timestamps then place the media.
    }
    sourceBuffer.addEventListener('updateend', onUpdateEnd);
    sourceBuffer.addEventListener('error', onBufferError);
    return true;
  }

  /** A new init segment: the first one creates the buffer; a later one resets it (a new upstream). */
  function applyInit(init: Uint8Array<ArrayBuffer>) {
    haveInit = true;
    if (!sourceBuffer) {
      queue.length = 0;
      if (mediaSource.readyState !== 'open') {
        pendingInit = init;
        return;
      }
      if (!createSourceBuffer(announcedMime)) return;
      queue.push({ kind: 'append', data: init });
      pump();
      return;
    }
    queue.length = 0;
    try {
      if (sourceBuffer.updating) sourceBuffer.abort();
    } catch {
      // The MediaSource closed meanwhile; the next append reports it.
    }
    if (announcedMime !== bufferMime) {
      if (typeof sourceBuffer.changeType === 'function') {
        try {
          sourceBuffer.changeType(announcedMime);
          bufferMime = announcedMime;
        } catch {
          fail('unsupported');
          return;
        }
      } else {
        // No changeType (older engines): a fresh MediaSource for the new type.
        detachMediaSource();
        haveInit = true;
        pendingInit = init;
        openMediaSource();
        return;
      }
    }
    const ranges = sourceBuffer.buffered;
    if (ranges.length > 0) {
      queue.push({ kind: 'remove', start: ranges.start(0), end: ranges.end(ranges.length - 1) });
    }
    queue.push({ kind: 'append', data: init });
    started = false;
    lastEnd = null;
    pump();
  }

  function pump() {
    if (closed || failed || !sourceBuffer || sourceBuffer.updating || mediaSource.readyState !== 'open')
      return;
    const operation = queue.shift();
    if (!operation) return;
    try {
      if (operation.kind === 'append') sourceBuffer.appendBuffer(operation.data);
      else sourceBuffer.remove(operation.start, operation.end);
    } catch (error) {
      if (operation.kind === 'append' && isQuotaExceeded(error)) {
        makeRoom(operation);
        return;
      }
      fail('media');
    }
  }

  /** The buffer is full (a tab in the background, say): drop all but the last seconds and go on live. */
  function makeRoom(blocked: Operation) {
    const ranges = sourceBuffer?.buffered;
    const start = ranges && ranges.length > 0 ? ranges.start(0) : 0;
    const cut = ranges && ranges.length > 0 ? ranges.end(ranges.length - 1) - 3 : 0;
    if (cut > start) {
      queue.unshift({ kind: 'remove', start, end: cut }, blocked);
      started = false;
    }
    // Nothing left to remove: the fragment cannot fit and is skipped.
    pump();
  }

  function onUpdateEnd() {
    if (closed || !sourceBuffer) return;
    const ranges = sourceBuffer.buffered;
    if (ranges.length > 0) {
      const end = ranges.end(ranges.length - 1);
      if (lastEnd !== null && end > lastEnd) {
        const grew = end - lastEnd;
        fragmentS = fragmentS === 0 ? grew : fragmentS * 0.8 + grew * 0.2;
      }
      lastEnd = end;
      if (!started) {
        started = true;
        video.currentTime = Math.max(ranges.start(0), end - LIVE_EDGE.targetLagS);
        startPlayback();
      } else {
        steerToLiveEdge(video, fragmentS);
      }
      if (queue.length === 0) {
        const stale = staleRange(video);
        if (stale) queue.push({ kind: 'remove', start: stale[0], end: stale[1] });
      }
    }
    pump();
  }

  function startPlayback() {
    const playing = video.play() as Promise<void> | undefined;
    playing?.catch((error: unknown) => {
      if (!closed && error instanceof DOMException && error.name === 'NotAllowedError')
        onEvent({ type: 'blocked' });
    });
  }

  function onBufferError() {
    fail('media');
  }

  function onVideoError() {
    fail('media');
  }

  // --- Socket -----------------------------------------------------------------------------------------

  function onMessage(data: unknown) {
    if (closed || failed) return;
    if (typeof data === 'string') {
      let message: unknown;
      try {
        message = JSON.parse(data);
      } catch {
        return;
      }
      if (!isRecord(message)) return;
      if (message.type === 'init' && typeof message.mime_type === 'string') {
        if (!env.MediaSource.isTypeSupported(message.mime_type)) {
          fail('unsupported');
          return;
        }
        announcedMime = message.mime_type;
        awaitingInit = true;
      } else if (message.type === 'status' && isStreamStatus(message.stream_status)) {
        onEvent({ type: 'status', status: message.stream_status });
      }
      return;
    }
    let bytes: Uint8Array<ArrayBuffer>;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (data instanceof Uint8Array) bytes = new Uint8Array(data);
    else return;
    // The first binary message is the init segment even if no text `init` announced it.
    if (awaitingInit || !haveInit) {
      awaitingInit = false;
      applyInit(bytes);
      return;
    }
    queue.push({ kind: 'append', data: bytes });
    pump();
  }

  async function connect() {
    retryTimer = undefined;
    let url: string;
    try {
      url = await options.getUrl();
    } catch {
      socketLost();
      return;
    }
    if (closed || failed) return;
    let ws: WebSocket;
    try {
      ws = new env.WebSocket(url);
    } catch {
      socketLost();
      return;
    }
    ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.onopen = () => {
      everOpened = true;
      attempt = 0;
      onEvent({ type: 'opened' });
    };
    ws.onmessage = (event: MessageEvent<unknown>) => onMessage(event.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      socketLost();
    };
  }

  function socketLost() {
    if (closed || failed) return;
    // Never opened: the caller falls back to HLS. Lost later: try again, then give up.
    if (!everOpened || attempt >= delays.length) {
      fail('socket');
      return;
    }
    const delay = delays[attempt] ?? 0;
    attempt += 1;
    onEvent({ type: 'reconnecting', attempt });
    retryTimer = setTimeout(() => void connect(), delay);
  }

  function stopSocket() {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    const ws = socket;
    socket = null;
    if (ws) {
      ws.onopen = null;
      ws.onmessage = null;
      ws.onclose = null;
      ws.close();
    }
  }

  video.addEventListener('error', onVideoError);
  openMediaSource();
  void connect();

  return {
    close() {
      if (closed) return;
      closed = true;
      stopSocket();
      video.removeEventListener('error', onVideoError);
      detachMediaSource();
      video.removeAttribute('src');
      video.load();
    },
  };
}
