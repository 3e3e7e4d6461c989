import {
  createFragmentBuffer,
  createHls,
  createLiveHub,
  inspectFragment,
  parseInit,
  type Fragment,
  type FragmentBuffer,
  type InitSegment,
  type LiveViewer,
  type StreamStatus,
} from '@homesitter/cameras';
import type { Logger } from '../../platform/logger.js';

/** A relay keeps the fragments since the newest keyframe (what a joining viewer starts with), at most this. */
const RELAY_MAX_BYTES = 16 * 1024 * 1024;
const STREAM_STATUSES: readonly string[] = [
  'connecting',
  'streaming',
  'reconnecting',
] satisfies StreamStatus[];

/** The helper's live socket for one camera, as the relay sees it. */
export interface RelaySocket {
  close(code: number, reason: string): void;
}

export interface RelayOptions {
  cameraId: string;
  log: Logger;
  /** Nobody watching for this long: the helper is told to stop (`live-stop`) and the relay ends. */
  lingerMs: number;
  /** A relay wanted but not (or no longer) arriving is asked for again after this long. */
  retryMs: number;
  /** Sends `live-start` to the helper bridging the camera; false when no helper bridges it now. */
  requestStart(): boolean;
  /** The relay ended for lack of viewers: tell the helper (`live-stop`) and forget the relay. */
  onIdle(): void;
  now?: () => number;
}

/**
 * The live side of a camera the desktop helper bridges: the helper relays, on its own live socket, exactly
 * what a viewer of its camera hub receives (a `{type:"init"}` text, the init segment, one message per fMP4
 * fragment, `{type:"status"}` texts). Each piece is read again here (`parseInit`, `inspectFragment`) and fed
 * to a fragment buffer, a live hub and HLS exactly as a pulled camera's pipe feeds its own, so the live
 * routes serve both alike. The helper is asked to relay when the first viewer joins or the HLS playlist is
 * asked for, and to stop once nobody watched for `lingerMs`.
 */
export function createRelay(options: RelayOptions) {
  const { log, lingerMs, retryMs } = options;
  const now = options.now ?? Date.now;
  // A new relay socket starts a new stream: joining viewers must not get the old one's fragments.
  const newBuffer = () => createFragmentBuffer({ keepMs: 0, maxBytes: RELAY_MAX_BYTES });
  let inner = newBuffer();
  const buffer: FragmentBuffer = {
    reset: (init) => inner.reset(init),
    push: (fragment) => inner.push(fragment),
    init: () => inner.init(),
    sinceKeyframe: () => inner.sinceKeyframe(),
    from: (ms) => inner.from(ms),
    newest: () => inner.newest(),
    size: () => inner.size(),
  };
  const hub = createLiveHub({ buffer });
  const hls = createHls();
  let init: InitSegment | undefined;
  let sequence = 0;
  let socket: RelaySocket | undefined;
  /** `live-start` was sent and its socket has not arrived yet. */
  let requested = false;
  let lastHlsAt = Number.NEGATIVE_INFINITY;
  let linger: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let ended = false;

  const wanted = () => hub.viewers() > 0 || now() - lastHlsAt < lingerMs;

  function later(ms: number, work: () => void): NodeJS.Timeout {
    const timer = setTimeout(work, ms);
    timer.unref();
    return timer;
  }

  function ensureStarted(): void {
    if (ended || socket || requested) return;
    requested = options.requestStart();
    if (!requested) return;
    // The helper may be busy or never answer: ask again while someone still wants the camera.
    clearTimeout(retry);
    retry = later(retryMs * 5, () => {
      retry = undefined;
      if (socket || ended) return;
      requested = false;
      if (wanted()) ensureStarted();
    });
  }

  function scheduleLinger(ms = lingerMs): void {
    clearTimeout(linger);
    linger = later(ms, () => {
      linger = undefined;
      if (ended || hub.viewers() > 0) return;
      const left = lastHlsAt + lingerMs - now();
      if (left > 0) scheduleLinger(left);
      else {
        end('live-stop');
        options.onIdle();
      }
    });
  }

  function restartStream(): void {
    inner = newBuffer();
    init = undefined;
    sequence = 0;
  }

  function end(reason: string): void {
    if (ended) return;
    ended = true;
    clearTimeout(linger);
    clearTimeout(retry);
    socket?.close(1000, reason);
    socket = undefined;
    hub.close();
  }

  function onBinary(data: Buffer): void {
    const box = data.length >= 8 ? data.toString('latin1', 4, 8) : '';
    if (box === 'ftyp' || box === 'moov') {
      init = parseInit(data);
      sequence = 0;
      buffer.reset(init);
      hls.reset(init);
      hub.onInit();
      return;
    }
    if (!init) return;
    const info = inspectFragment(data, init);
    const fragment: Fragment = {
      data,
      keyframe: info.keyframe,
      receivedAt: now(),
      durationMs: info.durationMs,
      sequence: sequence++,
    };
    buffer.push(fragment);
    hls.push(fragment);
    hub.onFragment(fragment);
  }

  function onText(text: string): void {
    // The `init` text announces the init segment, which is recognised by its own boxes.
    const message = JSON.parse(text) as { type?: unknown; stream_status?: unknown };
    if (message.type === 'status' && STREAM_STATUSES.includes(String(message.stream_status))) {
      hub.onStatus(message.stream_status as StreamStatus);
    }
  }

  return {
    /** Adds a viewer (as a pulled camera's hub does); the first one asks the helper to relay. */
    join(viewer: LiveViewer): () => void {
      const leave = hub.join(viewer);
      clearTimeout(linger);
      ensureStarted();
      return () => {
        leave();
        if (hub.viewers() === 0 && !ended) scheduleLinger();
      };
    },
    mimeType: (): string | null => init?.mimeType ?? null,
    hls: {
      /** Asking for the playlist counts as watching (for `lingerMs`), and asks the helper to relay. */
      playlist(query: string): string | undefined {
        lastHlsAt = now();
        ensureStarted();
        if (!ended) scheduleLinger();
        return hls.playlist(query);
      },
      init(map: number): Buffer | undefined {
        lastHlsAt = now();
        return hls.init(map);
      },
      segment(sequence: number): Buffer | undefined {
        lastHlsAt = now();
        return hls.segment(sequence);
      },
    },

    /** The helper opened its live socket for this camera (a second one replaces the first). */
    attach(next: RelaySocket): void {
      if (socket && socket !== next) socket.close(1000, 'replaced');
      socket = next;
      requested = false;
      clearTimeout(retry);
      restartStream();
      // A relay nobody asked for (any more) stops after the linger like any other.
      if (!wanted()) scheduleLinger();
    },
    /** One message of the helper's live socket; a piece that cannot be read is left out. */
    receive(from: RelaySocket, data: Buffer, isBinary: boolean): void {
      if (from !== socket || ended) return;
      try {
        if (isBinary) onBinary(data);
        else onText(data.toString('utf8'));
      } catch (err) {
        log.debug({ cameraId: options.cameraId, err: String(err) }, 'helper live message ignored');
      }
    },
    /** The helper's live socket closed: viewers wait (reconnecting) and the relay is asked for again. */
    detach(from: RelaySocket): void {
      if (from !== socket) return;
      socket = undefined;
      restartStream();
      if (ended) return;
      hub.onStatus('reconnecting');
      clearTimeout(retry);
      retry = later(retryMs, () => {
        retry = undefined;
        if (wanted()) ensureStarted();
      });
    },
    /** A helper (again) bridges the camera: a relay still wanted is asked for. */
    bridged(): void {
      if (wanted()) ensureStarted();
    },
    /** No helper bridges the camera any more: viewers see "reconnecting" until one does. */
    bridgeLost(): void {
      requested = false;
      hub.onStatus('reconnecting');
    },
    viewers: () => hub.viewers(),
    /** Ends the relay at once (private mode, the camera gone, shutdown): viewers are closed. */
    close: (reason: string) => end(reason),
  };
}
export type Relay = ReturnType<typeof createRelay>;
