import { LIVE_EDGE } from './liveEdge';
import type { LiveSession, LiveSessionEvent } from './mseSession';

export interface HlsSessionOptions {
  video: HTMLVideoElement;
  url: string;
  /** The browser plays HLS itself (Safari); otherwise hls.js, loaded on demand. */
  native: boolean;
  onEvent: (event: LiveSessionEvent) => void;
}

function startPlayback(
  video: HTMLVideoElement,
  onEvent: HlsSessionOptions['onEvent'],
  isClosed: () => boolean,
) {
  video.play().catch((error: unknown) => {
    if (!isClosed() && error instanceof DOMException && error.name === 'NotAllowedError')
      onEvent({ type: 'blocked' });
  });
}

/**
 * The fallback: the camera's fMP4 HLS playlist, natively where the browser can (Safari) or through hls.js in
 * its low-latency live mode. A fatal network or media error ends the session; the player retries it.
 */
export function startHlsSession({ video, url, native, onEvent }: HlsSessionOptions): LiveSession {
  let closed = false;
  const isClosed = () => closed;
  const onError = () => {
    if (!closed) onEvent({ type: 'failed', reason: 'media' });
  };

  if (native) {
    video.addEventListener('error', onError);
    video.src = url;
    startPlayback(video, onEvent, isClosed);
    return {
      close() {
        closed = true;
        video.removeEventListener('error', onError);
        video.removeAttribute('src');
        video.load();
      },
    };
  }

  let player: { destroy(): void } | null = null;
  void import('hls.js').then(
    ({ default: Hls }) => {
      if (closed) return;
      if (!Hls.isSupported()) {
        onEvent({ type: 'failed', reason: 'unsupported' });
        return;
      }
      const hls = new Hls({
        lowLatencyMode: true,
        liveSyncDurationCount: 2,
        liveMaxLatencyDurationCount: 5,
        maxLiveSyncPlaybackRate: LIVE_EDGE.catchUpRate,
        backBufferLength: LIVE_EDGE.keepBehindS,
      });
      player = hls;
      let recovered = false;
      hls.on(Hls.Events.MANIFEST_PARSED, () => startPlayback(video, onEvent, isClosed));
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (closed || !data.fatal) return;
        // A decoding hiccup is worth one recovery; anything else ends this attempt.
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
          recovered = true;
          hls.recoverMediaError();
          return;
        }
        onEvent({ type: 'failed', reason: data.type === Hls.ErrorTypes.MEDIA_ERROR ? 'media' : 'socket' });
      });
      hls.loadSource(url);
      hls.attachMedia(video);
    },
    () => {
      if (!closed) onEvent({ type: 'failed', reason: 'unsupported' });
    },
  );
  return {
    close() {
      closed = true;
      player?.destroy();
      player = null;
    },
  };
}
