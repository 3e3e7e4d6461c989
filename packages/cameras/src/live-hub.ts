import type { FragmentBuffer } from './fragment-buffer.js';
import type { Fragment, StreamStatus } from './types.js';

/**
 * Fans one camera's fragments out to its live viewers (WebSockets feeding Media Source Extensions). Every
 * viewer gets the same Buffer, never a copy. A viewer that cannot keep up skips to the next keyframe rather
 * than falling behind: live view shows now, or nothing.
 */

/** One live viewer, e.g. a WebSocket. */
export interface LiveViewer {
  send(data: Buffer | string): void;
  /** Bytes queued but not yet sent. */
  bufferedAmount(): number;
  close(): void;
}

export interface LiveHubOptions {
  /** Where a joining viewer's first frames come from (the init segment and the fragments since a keyframe). */
  buffer: FragmentBuffer;
  /** A viewer with more queued than this (default 2 MB) skips fragments until the next keyframe. */
  maxBufferedBytes?: number;
}

export interface LiveHub {
  /** Adds a viewer; answers the function that removes it. */
  join(viewer: LiveViewer): () => void;
  /** The buffer got a new init segment: everyone starts over with it. */
  onInit(): void;
  onFragment(fragment: Fragment): void;
  onStatus(status: StreamStatus): void;
  viewers(): number;
  /** Closes every viewer. */
  close(): void;
}

interface ViewerState {
  viewer: LiveViewer;
  /** Fragments are skipped until a keyframe: after joining without one, or after falling behind. */
  waitingForKeyframe: boolean;
}

export function createLiveHub({ buffer, maxBufferedBytes = 2 * 1024 * 1024 }: LiveHubOptions): LiveHub {
  const viewers = new Set<ViewerState>();
  let status: StreamStatus = 'connecting';

  function send(state: ViewerState, data: Buffer | string): void {
    try {
      state.viewer.send(data);
    } catch {
      // A socket that throws is gone; its close handler will leave too.
      viewers.delete(state);
    }
  }

  /** Init message, init segment, then the fragments since the newest keyframe. */
  function start(state: ViewerState): void {
    const init = buffer.init();
    if (!init) {
      state.waitingForKeyframe = true;
      return;
    }
    send(state, JSON.stringify({ type: 'init', mime_type: init.mimeType }));
    send(state, init.data);
    const recent = buffer.sinceKeyframe();
    for (const fragment of recent) send(state, fragment.data);
    state.waitingForKeyframe = recent.length === 0;
  }

  function statusMessage(): string {
    return JSON.stringify({ type: 'status', stream_status: status });
  }

  return {
    join(viewer) {
      const state: ViewerState = { viewer, waitingForKeyframe: true };
      viewers.add(state);
      start(state);
      send(state, statusMessage());
      return () => void viewers.delete(state);
    },
    onInit() {
      for (const state of viewers) start(state);
    },
    onFragment(fragment) {
      for (const state of viewers) {
        if (state.waitingForKeyframe) {
          if (!fragment.keyframe) continue;
          state.waitingForKeyframe = false;
        }
        if (state.viewer.bufferedAmount() > maxBufferedBytes) {
          state.waitingForKeyframe = true;
          continue;
        }
        send(state, fragment.data);
      }
    },
    onStatus(next) {
      if (next === status) return;
      status = next;
      const message = statusMessage();
      for (const state of viewers) send(state, message);
    },
    viewers: () => viewers.size,
    close() {
      for (const state of viewers) {
        try {
          state.viewer.close();
        } catch {
          // Already closed.
        }
      }
      viewers.clear();
    },
  };
}
