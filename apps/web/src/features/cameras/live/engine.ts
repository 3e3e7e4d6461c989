import type { CameraLive } from '@homesitter/contract';
import type { MseEnvironment } from './mseSession';

/**
 * How a stream reaches the screen: MSE over the socket, hls.js, the browser's own HLS, or WebRTC straight
 * from Google (Nest cameras that stream only that way).
 */
export type LiveEngine = 'mse' | 'hls' | 'native-hls' | 'webrtc';

export interface PlaybackSupport {
  mse: MseEnvironment | null;
  /** The video element plays `application/vnd.apple.mpegurl` itself (Safari). */
  nativeHls: boolean;
  /** The browser has RTCPeerConnection (every current browser and the apps' WebViews). */
  webrtc?: boolean;
}

export const HLS_MIME = 'application/vnd.apple.mpegurl';

/** What this browser can play, read once from a scratch video element. */
export function browserSupport(mse: MseEnvironment | null): PlaybackSupport {
  const probe = document.createElement('video');
  return {
    mse,
    nativeHls: probe.canPlayType(HLS_MIME) !== '',
    webrtc: typeof RTCPeerConnection === 'function',
  };
}

/**
 * The ways to try, best first: MSE when the browser has it and can play the stream's type (not known yet
 * while the camera's stream starts: the socket's init message tells it, and the session checks it then),
 * then HLS (native where the browser plays it, else hls.js). Empty when the camera offers neither.
 * A Nest camera in `mode: webrtc` plays over WebRTC only.
 */
export function pickEngines(
  live: Pick<CameraLive, 'mse_url' | 'hls_url' | 'mime_type'> & Partial<Pick<CameraLive, 'mode'>>,
  support: PlaybackSupport,
) {
  const engines: LiveEngine[] = [];
  // A WebRTC camera has no other way: no socket, no playlist.
  if (live.mode === 'webrtc') return support.webrtc ? (['webrtc'] as LiveEngine[]) : engines;
  const playable = (type: string | null) => !type || support.mse?.MediaSource.isTypeSupported(type);
  if (live.mse_url && support.mse && playable(live.mime_type)) {
    engines.push('mse');
  }
  if (live.hls_url) engines.push(support.nativeHls ? 'native-hls' : 'hls');
  return engines;
}
